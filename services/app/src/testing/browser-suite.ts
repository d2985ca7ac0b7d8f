import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { test } from '@vp/testing';
import { newWindowEachTime, startTestApp } from './app.ts';
import { launchBrowser } from './chromium.ts';
import { startMailCatcher, type MailCatcher } from './mail-catcher.ts';

/**
 * A browser test file's setting: one Chromium and one SMTP catcher for the file, and an `it` whose
 * `app` fixture is the app over the file's database, mailing to that catcher, with sign-in limits
 * that never bite (the file signs in many times from one address). `app` adds options of the
 * test app (`keyRequests`: the approval page, over Temporal).
 */
export function browserSuite(options: { app?: { keyRequests?: boolean } } = {}) {
  const shared = {} as { browser: Browser; mail: MailCatcher };
  beforeAll(async () => {
    [shared.browser, shared.mail] = await Promise.all([launchBrowser(), startMailCatcher()]);
  });
  afterAll(async () => {
    await Promise.all([shared.browser?.close(), shared.mail?.close()]);
  });
  const it = test.extend('app', { scope: 'file' }, async ({ database }, { onCleanup }) => {
    const app = await startTestApp(database, { ...options.app, mail: shared.mail, limiterNow: newWindowEachTime() });
    onCleanup(app.close);
    return app;
  });
  return { shared, it };
}
