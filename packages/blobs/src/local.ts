import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { assertKey, assertPrefix, BlobNotFoundError, contentTypeOf, type BlobStore } from './store.ts';

/** Blobs as files under one folder (one machine, or a volume every process mounts). */
export function localBlobStore(dir: string): BlobStore {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    assertKey(key);
    return join(root, key);
  };
  const missing = (key: string) => (error: unknown): never => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
    throw error;
  };

  return {
    async put(key, body, options = {}) {
      options.signal?.throwIfAborted();
      const path = pathOf(key);
      // Written beside, then renamed: a reader sees the old blob or the new one, never half of one.
      const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
      const write = () => (Buffer.isBuffer(body) ? writeFile(temporary, body) : copyFile(body.file, temporary));
      try {
        // A delete in the same folder may remove it (or a parent) while it is still empty, even
        // while it is being made: then it is made again.
        for (let tries = 1; ; tries++) {
          const written = await mkdir(dirname(path), { recursive: true }).then(write).then(() => true, (error: NodeJS.ErrnoException) => {
            if (!(error.code === 'ENOENT' || error.code === 'ENOTDIR') || tries === 5) throw error;
            return false;
          });
          if (written) break;
        }
        // A local disk answers; a write given up while it ran is not renamed into place.
        options.signal?.throwIfAborted();
        await rename(temporary, path);
      } finally {
        await rm(temporary, { force: true });
      }
    },

    get: (key) => readFile(pathOf(key)).catch(missing(key)),

    async stat(key) {
      const info = await stat(pathOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!info?.isFile()) return null;
      return {
        size: info.size,
        contentType: contentTypeOf(key),
        etag: `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
        lastModified: info.mtime,
      };
    },

    async read(key, range) {
      const path = pathOf(key);
      await stat(path).catch(missing(key));
      const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },

    async delete(key) {
      const path = pathOf(key);
      await rm(path, { force: true });
      // The folders it leaves empty go too, up to the root: a folder still in use is not empty.
      for (let folder = dirname(path); folder.startsWith(root + sep); folder = dirname(folder)) {
        if (!(await rmdir(folder).then(() => true, () => false))) break;
      }
    },

    async list(prefix) {
      assertPrefix(prefix);
      const files = await filesUnder(join(root, prefix));
      return files.map((file) => relative(root, file).split(sep).join('/'));
    },
  };
}

/** Every file under `dir`, walked folder by folder: one a delete removes meanwhile held no files. */
async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const pending = [dir]; pending.length;) {
    const folder = pending.pop()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
      throw error;
    });
    for (const entry of entries) {
      if (entry.isDirectory()) pending.push(join(folder, entry.name));
      else if (entry.isFile()) files.push(join(folder, entry.name));
    }
  }
  return files;
}
