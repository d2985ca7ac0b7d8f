import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The Go-built tools the stack runs (the Temporal CLI; versitygw in tests): found on PATH or in
 * a per-user cache, else built once with `go install` where Go exists.
 */

/** A per-user cache folder for one tool version, so every clone of the project shares one build. */
export function toolCacheDir(toolVersion: string): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'video-production-service', toolVersion);
}

export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name)).find(executable);
}

/** The Go toolchain, on PATH or where the official installer puts it. */
export function findGo(): string | undefined {
  return onPath('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

/** `go install module@version` into `dir`; rejects with Go's own output. */
export async function goInstall(go: string, module: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await new Promise<void>((resolve, reject) =>
    execFile(go, ['install', module], { env: { ...process.env, GOBIN: dir }, maxBuffer: 1 << 24 }, (error, _out, stderr) =>
      error ? reject(new Error(`go install ${module} failed:\n${stderr}`)) : resolve()));
}
