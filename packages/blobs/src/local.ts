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
    async put(key, body) {
      const path = pathOf(key);
      // Written beside, then renamed: a reader sees the old blob or the new one, never half of one.
      const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
      const write = () => (Buffer.isBuffer(body) ? writeFile(temporary, body) : copyFile(body.file, temporary));
      try {
        // A delete in the same folder may remove it while it is still empty: then it is made again.
        for (let tries = 1; ; tries++) {
          await mkdir(dirname(path), { recursive: true });
          const written = await write().then(() => true, (error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT' || tries === 5) throw error;
            return false;
          });
          if (written) break;
        }
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
      const entries = await readdir(join(root, prefix), { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
    },
  };
}
