/**
 * An expected error: its message is printed on stderr without a stack trace,
 * and the process exits with its code (2 for a usage error, 1 for a failure).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The command line is wrong: unknown command, missing or invalid option. Exit code 2. */
export function usageError(message: string): CliError {
  return new CliError(message, 2);
}

/** The command line is fine but the operation cannot be done (unknown account, say). Exit code 1. */
export function failure(message: string): CliError {
  return new CliError(message, 1);
}
