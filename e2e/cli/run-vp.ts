import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `vp` the workspace links at its root, as a user's shell runs it. */
export const VP = fileURLToPath(new URL('../../node_modules/.bin/vp', import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON
export type VpRun = { code: number; stdout: string; stderr: string; json: () => any };

/** Runs `vp` in a folder with an environment of the test's choosing (never the test process's keys). */
export function vp(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<VpRun> {
  return new Promise((resolve) => {
    execFile(VP, args, { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
  });
}
