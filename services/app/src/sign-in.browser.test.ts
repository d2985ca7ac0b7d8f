import { describe, expect } from 'vitest';
import { addVirtualAuthenticator, BROWSER_TEST_MS, browserSuite, expectAccessible, newContext, signInByEmail, signInLinkIn } from './testing/index.ts';

const { shared, it } = browserSuite();

const cookieNamed = async (context: Awaited<ReturnType<typeof newContext>>, name: string) => (await context.cookies()).find((c) => c.name === name);

describe('signing in, in a real browser', { timeout: BROWSER_TEST_MS }, () => {
  it('by the link the real mailer sent to a real SMTP server; a new address lands on its own workspace', async ({ app }) => {
    const context = await newContext(shared.browser);
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await expectAccessible(page, 'the sign-in page');
    await page.getByLabel('E-mail address').fill('First@Example.test');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expectAccessible(page, 'the check-your-e-mail page');
    const message = await shared.mail.next('first@example.test', 0);
    expect(message.subject).toBe('Sign in to Video Production Service');
    await page.goto(signInLinkIn(message));
    await expectAccessible(page, 'the sign-in link\'s page');
    await page.getByRole('button', { name: 'Sign in as first@example.test' }).click();
    await page.waitForURL(`${app.url}/`);
    await expect(page.getByRole('heading', { name: 'Productions' }).isVisible()).resolves.toBe(true);
    const cookie = await cookieNamed(context, 'vp_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(29 * 86400);
    await expectAccessible(page, 'the productions page');
    // The link worked once.
    const used = signInLinkIn(shared.mail.messages.filter((m) => m.to.includes('first@example.test')).at(-1)!);
    const again = await context.newPage();
    const answer = await again.goto(used);
    expect(answer?.status()).toBe(410);
    await context.close();
  });

  it('with a passkey registered on the account page (Chromium\'s virtual authenticator)', async ({ app }) => {
    const context = await newContext(shared.browser);
    const page = await context.newPage();
    const authenticator = await addVirtualAuthenticator(page);
    await signInByEmail(page, app.url, shared.mail, 'passkey@example.test');
    await page.goto(`${app.url}/account`);
    await expectAccessible(page, 'the account page');
    await page.getByLabel('Name of the new passkey').fill('Test laptop <script>"');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('The passkey is added').waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    await expect(page.getByText('Test laptop <script>"').isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await page.waitForURL(`${app.url}/sign-in`);
    expect(await cookieNamed(context, 'vp_session')).toBeUndefined();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${app.url}/`);
    await expect(page.getByRole('heading', { name: 'Productions' }).isVisible()).resolves.toBe(true);
    await page.goto(`${app.url}/account`);
    await expect(page.getByText(/last used \d{4}-/).first().isVisible()).resolves.toBe(true);
    await context.close();
  });
});
