export { newWindowEachTime, startTestApp, type TestApp } from './app.ts';
export { startMailCatcher, signInLinkIn, type CaughtMail, type MailCatcher } from './mail-catcher.ts';
export { addVirtualAuthenticator, expectAccessible, launchBrowser, newContext, signInByEmail, BROWSER_TEST_MS, CHROMIUM } from './browser.ts';
export { startGatewayProcess } from './gateway.ts';
export { startWorkerProcess } from './worker.ts';
export { signedInSession } from './sessions.ts';
export { browserSuite } from './browser-suite.ts';
