import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium, which the test preparation installs (scripts/system-tools.ts). */
export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** One browser per test file: each test opens contexts (a fresh profile each) in it. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Browser tests need Chromium at ${CHROMIUM}: sudo apt-get install -y chromium (pnpm test installs it as root on Debian).`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/** How long a browser step may wait: the machine running the tests may be busy with others. */
export const BROWSER_STEP_MS = 60_000;
/** A browser test file's tests take several sign-ins each. */
export const BROWSER_TEST_MS = 240_000;

/** A fresh profile (cookies of its own), at a phone's width or a laptop's. */
export async function newContext(browser: Browser, width: 375 | 1280 = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 900 }, deviceScaleFactor: 1 });
  context.setDefaultTimeout(BROWSER_STEP_MS);
  return context;
}
