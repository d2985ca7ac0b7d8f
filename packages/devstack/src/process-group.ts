import type { ChildProcess } from 'node:child_process';

/** Whether the child is still running (not exited, not killed by a signal). */
export const runs = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Stops a child started `detached` (the leader of a process group of its own): SIGTERM to it, to
 * stop as it sees fit (a render worker lets its renders' ffmpeg finish), then after `graceMs`
 * SIGKILL to its whole group, whatever it started included; waits for the child to exit.
 */
export function stopProcessGroup(child: ChildProcess, graceMs: number): Promise<void> {
  if (!runs(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Signals the child's process group; the child alone where it has none (already gone: nothing). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
}
