import { ApiError, DeviceFlowError, ProductionEndedError } from '@vp/sdk';
import { EXIT, FailedError, line, printJson, UsageError, type Io } from './io.ts';

/** Prints an error in words (with the service's code and status) and picks the exit code. */
export function reportError(io: Io, error: unknown, json: boolean): number {
  const { exit, report } = describe(error);
  if (json) printJson(io.stderr, report);
  else {
    const code = report.code === 'usage' ? null : report.code;
    const why = [code, report.status && `HTTP ${report.status}`].filter(Boolean).join(', ');
    line(io.stderr, `vp: ${report.error}${why ? ` (${why})` : ''}`);
    for (const issue of report.issues ?? []) line(io.stderr, `  ${issue.path || '(body)'}: ${issue.message}`);
    if (exit === EXIT.usage) line(io.stderr, 'Run `vp help` for the commands and their options.');
  }
  return exit;
}

type Report = { error: string; code?: string | null; status?: number; issues?: { path: string; message: string }[]; requestId?: string | null };

function describe(error: unknown): { exit: number; report: Report } {
  if (error instanceof ApiError) {
    // A 5xx is the service failing, not refusing: the request may be fine as it is.
    const exit = error.status >= 500 ? EXIT.failed : EXIT.refused;
    return { exit, report: { error: error.message, code: error.code, status: error.status, issues: error.issues, requestId: error.requestId } };
  }
  if (error instanceof UsageError) return { exit: EXIT.usage, report: { error: error.message, code: 'usage' } };
  if (isArgError(error)) return { exit: EXIT.usage, report: { error: error.message, code: 'usage' } };
  if (error instanceof ProductionEndedError) return { exit: EXIT.failed, report: { error: error.message, code: error.stage } };
  if (error instanceof DeviceFlowError) return { exit: EXIT.refused, report: { error: error.message, code: error.status } };
  if (error instanceof FailedError) return { exit: EXIT.failed, report: { error: error.message } };
  const message = error instanceof Error ? unreachable(error) : String(error);
  return { exit: EXIT.failed, report: { error: message } };
}

/** node:util parseArgs' errors: an unknown option, a missing value. */
function isArgError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** A fetch that failed before any answer says only "fetch failed": say what it could not reach. */
function unreachable(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (error.message === 'fetch failed') return `Could not reach the service${cause?.code ? ` (${cause.code})` : ''}: ${cause?.message ?? error.message}`;
  return error.message;
}
