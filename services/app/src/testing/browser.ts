import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { MailCatcher } from './mail-catcher.ts';
import { signInLinkIn } from './mail-catcher.ts';

export { BROWSER_STEP_MS, BROWSER_TEST_MS, CHROMIUM, launchBrowser, newContext } from './chromium.ts';

/**
 * Chromium's virtual authenticator (CDP WebAuthn domain) for a page: a platform authenticator
 * that holds discoverable credentials and verifies its user at once, as a phone's screen lock would.
 */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/** No serious or critical accessibility violation on the page as it stands (axe-core). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `accessibility of ${what}`).toEqual([]);
}

/** Signs in as a person would: asks for a link, opens it from the e-mail the real mailer sent, presses the button. */
export async function signInByEmail(page: Page, appUrl: string, mail: MailCatcher, email: string): Promise<void> {
  const seen = mail.messages.filter((m) => m.to.includes(email)).length;
  await page.goto(`${appUrl}/sign-in`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await page.goto(signInLinkIn(await mail.next(email, seen)));
  await page.getByRole('button', { name: /^(Sign in as|Join and sign in as)/ }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}
