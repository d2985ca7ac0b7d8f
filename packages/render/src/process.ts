import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { RenderError } from './errors.ts';

/** Keeps the end of a child's stderr for the logs without holding all of it. */
const STDERR_KEEP = 8000;

export interface Child {
  process: ChildProcessWithoutNullStreams;
  /** Resolves with stdout when the child exits 0; rejects with a `RenderError` otherwise. */
  done: Promise<Buffer>;
}

/**
 * Starts a tool (ffmpeg, ffprobe, espeak-ng). The abort signal kills it; a failure becomes a
 * `RenderError` whose message is `failure` and whose details are the tool's stderr.
 */
export function startChild(command: string, args: string[], options: { signal?: AbortSignal; failure: string; collectStdout?: boolean }): Child {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  let stderr = '';
  if (options.collectStdout !== false) child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEEP);
  });
  // A child that exits early closes its stdin; the write error is reported through `done`.
  child.stdin.on('error', () => {});
  const kill = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', kill, { once: true });
  // Started after the abort (a job that was already on its way): the listener will never fire.
  if (options.signal?.aborted) kill();
  const done = new Promise<Buffer>((resolve, reject) => {
    child.on('error', (error) => {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(new RenderError(missing ? `${command} is not installed on the render machine` : options.failure, String(error), { cause: error }));
    });
    child.on('close', (code, signal) => {
      options.signal?.removeEventListener('abort', kill);
      if (options.signal?.aborted) reject(options.signal.reason);
      else if (code === 0) resolve(Buffer.concat(stdout));
      else reject(new RenderError(options.failure, `${command} exited with ${code ?? signal}: ${stderr.trim()}`));
    });
  });
  return { process: child, done };
}

/** Runs a tool to completion and returns its stdout. */
export function run(command: string, args: string[], options: { signal?: AbortSignal; failure: string; input?: Buffer }): Promise<Buffer> {
  const child = startChild(command, args, options);
  child.process.stdin.end(options.input);
  return child.done;
}
