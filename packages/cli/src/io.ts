/** What a command may touch of the world: injected, so tests run commands as a user would. */
export type Io = {
  env: Record<string, string | undefined>;
  /** The folder `vp` was started from; `produce` reads its git repository. */
  cwd: string;
  stdout: Output;
  stderr: Output;
};
export type Output = { write(text: string): unknown; isTTY?: boolean };

/** Exit codes scripts can trust. */
export const EXIT = { done: 0, failed: 1, usage: 2, refused: 3 } as const;

/** Wrong usage: exit 2 with the message and a pointer to help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The command ran but its outcome is a failure (a production that failed, a render that failed): exit 1. */
export class FailedError extends Error {
  override readonly name = 'FailedError';
}

export const line = (out: Output, text = '') => out.write(`${text}\n`);
export const printJson = (out: Output, value: unknown) => out.write(`${JSON.stringify(value, null, 2)}\n`);
