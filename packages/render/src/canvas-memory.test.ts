import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The purge delay the canvas library's allocator runs with, in a process that loaded the renderer first. */
async function purgeDelay(operatorSetting: string | undefined): Promise<string | undefined> {
  const script = "await import('./src/index.ts'); (await import('@napi-rs/canvas')).createCanvas(2, 2).data();";
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: packageDir, env: { ...process.env, MIMALLOC_PURGE_DELAY: operatorSetting, MIMALLOC_VERBOSE: '1' },
  });
  return /option 'purge_delay': (-?\d+)/.exec(stderr)?.[1];
}

describe('the canvas library\'s allocator', () => {
  it('keeps freed memory for 200 ms when the renderer loads it, so frame read-backs reuse it', async () => {
    expect(await purgeDelay(undefined)).toBe('200');
  });

  it('keeps an operator\'s own setting', async () => {
    expect(await purgeDelay('50')).toBe('50');
  });
});
