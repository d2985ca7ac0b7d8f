import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { ApiError, requestApiKey } from '@vp/sdk';
import type { Command } from '../command.ts';
import { forgetKey, storeKey } from '../credentials.ts';
import { line, printJson, UsageError } from '../io.ts';
import { statusLine } from '../spinner.ts';

const login: Command = {
  name: 'login',
  usage: 'login [--base-url URL] [--name NAME]',
  summary: 'Sign in with the device flow: approve in a browser, the key is kept in your config folder (0600).',
  options: { name: { type: 'string' }, 'no-browser': { type: 'boolean' } },
  async run(context, values) {
    if (context.env.VP_API_KEY) throw new UsageError('VP_API_KEY is set: vp uses it and never signs in; unset it to sign in');
    const name = typeof values.name === 'string' ? values.name : `vp on ${hostname()}`.slice(0, 100);
    const waiting = statusLine(context.stderr);
    const { apiKey } = await requestApiKey({
      baseUrl: context.baseUrl,
      name,
      onApproval: ({ approvalUrl, userCode, expiresInSeconds }) => {
        line(context.stderr, `Open ${approvalUrl}\nand check that it shows the code ${userCode} (valid ${Math.round(expiresInSeconds / 60)} minutes).`);
        if (!values['no-browser'] && context.stdout.isTTY) openBrowser(approvalUrl);
        waiting.update('Waiting for the approval in the browser…');
      },
    }).finally(() => waiting.stop());
    const path = await storeKey(context.env, context.baseUrl, apiKey);
    if (context.json) printJson(context.stdout, { signedIn: true, baseUrl: context.baseUrl, keyPrefix: apiKey.slice(0, 12), credentials: path });
    else line(context.stdout, `Signed in to ${context.baseUrl}; the key (${apiKey.slice(0, 12)}…) is kept in ${path}.`);
  },
};

const logout: Command = {
  name: 'logout',
  usage: 'logout [--base-url URL]',
  summary: 'Revoke the key (DELETE /v1/keys/current) and forget it.',
  async run(context) {
    const { from } = await context.key();
    let note = 'The key is revoked';
    try {
      await (await context.client()).keys.revokeCurrent();
    } catch (error) {
      // Revoked already (elsewhere, or by an earlier logout): forgetting it is all that is left.
      if (!(error instanceof ApiError && (error.status === 401 || error.code === 'not_found'))) throw error;
      note = 'The key was already revoked';
    }
    if (from !== 'VP_API_KEY') await forgetKey(context.env, context.baseUrl);
    if (context.json) printJson(context.stdout, { signedOut: true, baseUrl: context.baseUrl });
    else line(context.stdout, `${note}${from === 'VP_API_KEY' ? ' (VP_API_KEY is still set: unset it)' : ` and forgotten; signed out of ${context.baseUrl}`}.`);
  },
};

const whoami: Command = {
  name: 'whoami',
  usage: 'whoami [--base-url URL]',
  summary: 'The service, the key in use (its prefix and where it comes from) and this month\'s usage.',
  async run(context) {
    const { apiKey, from } = await context.key();
    const usage = await (await context.client()).productions.usage();
    const who = { baseUrl: context.baseUrl, keyPrefix: apiKey.slice(0, 12), keyFrom: from, usage };
    if (context.json) return void printJson(context.stdout, who);
    line(context.stdout, `Signed in to ${who.baseUrl} with ${who.keyPrefix}… (from ${from}).`);
    line(context.stdout, `${usage.month}: ${usage.credits.balance} credits left, ${usage.pitches.used} of ${usage.pitches.cap} pitches used, ${usage.productions.delivered} videos delivered.`);
  },
};

/** Opens the approval page where a browser exists; where none does, the printed address is enough. */
function openBrowser(url: string) {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener on this machine.
  }
}

export const accountCommands: Command[] = [login, logout, whoami];
