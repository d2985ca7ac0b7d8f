import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished } from 'vitest';
import { BROWSER_TEST_MS, browserSuite, newContext, signInByEmail } from '@vp/app/testing';
import { createClient } from '@vp/sdk';
import { waitFor } from '@vp/testing';
import { servedGateway } from '../sdk/served.ts';
import { VP, vp } from './run-vp.ts';

const { shared, it } = browserSuite();

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'vp-login-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe('vp login and vp logout, end to end', () => {
  it('signs in with the device flow approved in a browser, keeps the key (0600), and logout revokes it', { timeout: BROWSER_TEST_MS * 3 }, async ({ app, database }) => {
    // The real gateway and workers, on the app's task queues, sending people to the app to approve.
    const served = await servedGateway(database, { workers: true, env: { APP_URL: app.url, TEMPORAL_TASK_QUEUE_PREFIX: app.config.temporal.taskQueuePrefix } });
    onTestFinished(served.close);
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: process.env.PATH ?? '' };
    // A person at a terminal: vp prints where to approve and waits.
    const login = spawn(VP, ['login', '--base-url', served.baseUrl, '--name', 'vp in the login test'], { cwd: home, env });
    let stderr = '';
    let stdout = '';
    login.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    login.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    const exited = new Promise<number>((resolve) => login.once('exit', (code) => resolve(code ?? 1)));
    const [, approvalUrl, userCode] = await waitFor(() => /Open (\S+)\nand check that it shows the code (\S+)/.exec(stderr) ?? undefined, { what: 'the approval URL', timeoutMs: 30_000 });
    expect(approvalUrl).toBe(`${app.url}/keys/approve?code=${userCode}`);

    const context = await newContext(shared.browser);
    const page = await context.newPage();
    await signInByEmail(page, app.url, shared.mail, 'cli-user@example.test');
    await page.goto(approvalUrl!);
    await page.getByRole('heading', { name: `Does your tool show ${userCode}?` }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved: “vp in the login test” receives its key on its next poll.').waitFor();
    await context.close();

    expect(await exited, stderr).toBe(0);
    expect(stdout).toContain(`Signed in to ${served.baseUrl}`);
    const credentials = join(home, '.config', 'vp', 'credentials.json');
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);

    const who = await vp(['whoami', '--json', '--base-url', served.baseUrl], { cwd: home, env });
    expect(who.code, who.stderr).toBe(0);
    expect(who.json()).toMatchObject({ baseUrl: served.baseUrl, keyFrom: credentials });
    const { apiKey } = JSON.parse(await readFile(credentials, 'utf8')).keys[served.baseUrl];
    await createClient({ baseUrl: served.baseUrl, apiKey }).productions.usage();

    const logout = await vp(['logout', '--base-url', served.baseUrl], { cwd: home, env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toContain('The key is revoked and forgotten');
    await expect(createClient({ baseUrl: served.baseUrl, apiKey, retry: false }).productions.usage()).rejects.toMatchObject({ status: 401 });
    const after = await vp(['whoami', '--base-url', served.baseUrl], { cwd: home, env });
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('vp login');
  });
});
