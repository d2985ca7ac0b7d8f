import { execFile } from 'node:child_process';

/** Runs git in the folder and answers its output as bytes (files may be binary) or, with `text`, as text. */
export function gitBytes(cwd: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new GitError(args, stderr.toString('utf8').trim() || error.message));
      else resolve(stdout);
    });
    // Nothing to read from us: a command that reads its input (hash-object --stdin) reads nothing.
    child.stdin?.end();
  });
}

/** Text as a person would read it: invalid UTF-8 becomes U+FFFD rather than failing the brief. */
export const decode = (bytes: Buffer): string => new TextDecoder('utf-8', { fatal: false }).decode(bytes);

export async function git(cwd: string, args: string[]): Promise<string> {
  return decode(await gitBytes(cwd, args));
}

/** git's answer, or null when it fails (no remote, no tag at this commit, no user name). */
export async function gitMaybe(cwd: string, args: string[]): Promise<string | null> {
  try {
    return (await git(cwd, args)).trim() || null;
  } catch {
    return null;
  }
}

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(readonly args: string[], readonly stderr: string) {
    super(`git ${args[0]} failed: ${stderr.split('\n')[0]}`);
  }
}
