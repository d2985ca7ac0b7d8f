/**
 * A real S3-compatible server for tests: versitygw (Apache-2.0, an S3 gateway onto a posix
 * folder, with SigV4 authentication and range reads). Found on PATH or in the per-user cache,
 * else built once with `go install`; without Go the S3 tests are skipped with this reason.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executable, findGo, goInstall, onPath, toolCacheDir } from './go-tools.ts';
import { freePort } from './ports.ts';

export const VERSITYGW_MODULE = 'github.com/versity/versitygw/cmd/versitygw@v1.8.0';

const cacheDir = () => toolCacheDir('versitygw-v1.8.0');

/** The versitygw binary, or why there is none. */
export async function findS3Server(): Promise<{ path: string } | { missing: string }> {
  const found = onPath('versitygw') ?? [join(cacheDir(), 'versitygw')].find(executable);
  if (found) return { path: found };
  const go = findGo();
  if (!go) return { missing: `no versitygw on PATH and no Go to build it (go install ${VERSITYGW_MODULE})` };
  await goInstall(go, VERSITYGW_MODULE, cacheDir());
  return { path: join(cacheDir(), 'versitygw') };
}

export type RunningS3 = { endpoint: string; accessKeyId: string; secretAccessKey: string; stop: () => Promise<void> };

/** Starts versitygw on a free loopback port over a fresh folder. */
export async function startS3Server(binary: string): Promise<RunningS3> {
  const dir = await mkdtemp(join(tmpdir(), 'vp-s3-'));
  const port = await freePort();
  const credentials = { accessKeyId: 'test-access-key', secretAccessKey: 'test-secret-key-0123456789' };
  const child = spawn(binary, ['--access', credentials.accessKeyId, '--secret', credentials.secretAccessKey, '--port', `127.0.0.1:${port}`, '--quiet', 'posix', dir], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`versitygw exited with code ${child.exitCode}`);
    if (await fetch(endpoint).then(() => true, () => false)) break;
    if (Date.now() > deadline) throw new Error('versitygw did not start within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    endpoint,
    ...credentials,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
