import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * The purge delay the canvas library's allocator runs with in a new process that runs `script`
 * (which loads part of the renderer and draws): mimalloc prints its options when verbose.
 */
async function purgeDelay(script: string, operatorSetting?: string): Promise<string | undefined> {
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: packageDir, env: { ...process.env, MIMALLOC_PURGE_DELAY: operatorSetting, MIMALLOC_VERBOSE: '1' },
  });
  return /option 'purge_delay': (-?\d+)/.exec(stderr)?.[1];
}

const readBack = "const { createCanvas } = await import('./src/canvas.ts'); createCanvas(2, 2).data();";

describe('the canvas library, as the renderer loads it', () => {
  it('hands freed memory back at once, so read-back buffers do not pile up between frames', async () => {
    expect(await purgeDelay(readBack)).toBe('0');
  });

  it('keeps an operator\'s own setting', async () => {
    expect(await purgeDelay(readBack, '10')).toBe('10');
  });

  it('is configured before the library loads whichever of the renderer\'s modules loads it first', async () => {
    // The colour parser is the first canvas a gateway makes (the renders API's form checks).
    expect(await purgeDelay("const { normalizeColor } = await import('./src/checks.ts'); normalizeColor('#fff');")).toBe('0');
  });
});
