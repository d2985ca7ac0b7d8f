import { mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { findS3Server, startS3Server, type RunningS3 } from '@vp/devstack';
import { BlobNotFoundError, createBlobStore, type BlobStore } from './index.ts';

const text = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer()).toString();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-blobs-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The same behaviour from every store. */
function behavesAsABlobStore(open: () => BlobStore) {
  it('puts bytes and files, and reads them back whole, by range and by stat', async () => {
    const store = open();
    await store.put('exports/one/video.mp4', Buffer.from('0123456789'));
    const file = join(dir, 'poster.jpg');
    await writeFile(file, 'a poster');
    await store.put('exports/one/poster.jpg', { file });

    expect((await store.get('exports/one/video.mp4')).toString()).toBe('0123456789');
    expect((await store.get('exports/one/poster.jpg')).toString()).toBe('a poster');
    expect(await text(await store.read('exports/one/video.mp4'))).toBe('0123456789');
    expect(await text(await store.read('exports/one/video.mp4', { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await store.read('exports/one/video.mp4', { start: 9, end: 9 }))).toBe('9');

    const info = await store.stat('exports/one/video.mp4');
    expect(info).toMatchObject({ size: 10, contentType: 'video/mp4' });
    expect(info?.etag).toMatch(/^(W\/)?".+"$/);
    expect(info?.lastModified).toBeInstanceOf(Date);
    expect((await store.stat('exports/one/poster.jpg'))?.contentType).toBe('image/jpeg');
  });

  it('stores nothing for a put whose signal was aborted', async () => {
    const store = open();
    const given = new AbortController();
    given.abort();
    await expect(store.put('exports/gone/video.mp4', Buffer.from('x'), { signal: given.signal })).rejects.toThrow();
    expect(await store.stat('exports/gone/video.mp4')).toBeNull();
  });

  it('replaces a blob whole', async () => {
    const store = open();
    await store.put('renders/r/images/1.png', Buffer.from('first'));
    await store.put('renders/r/images/1.png', Buffer.from('second, longer'));
    expect((await store.get('renders/r/images/1.png')).toString()).toBe('second, longer');
    expect((await store.stat('renders/r/images/1.png'))?.size).toBe(14);
  });

  it('knows what it does not have', async () => {
    const store = open();
    expect(await store.stat('exports/none/video.mp4')).toBeNull();
    await expect(store.get('exports/none/video.mp4')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.read('exports/none/video.mp4')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('deletes a blob, and takes the delete of one it does not have as done', async () => {
    const store = open();
    await store.put('renders/gone/images/1.png', Buffer.from('x'));
    await store.delete('renders/gone/images/1.png');
    expect(await store.stat('renders/gone/images/1.png')).toBeNull();
    await store.delete('renders/gone/images/1.png');
    await expect(store.delete('../outside')).rejects.toThrow(/Invalid blob key/);
  });

  it('lists the keys under a folder, and none for a folder it does not have', async () => {
    const store = open();
    for (const key of ['exports/listed/a1/video.mp4', 'exports/listed/a1/poster.jpg', 'exports/listed/b2/video.mp4', 'exports/listed-not/c3/video.mp4']) {
      await store.put(key, Buffer.from('x'));
    }
    expect((await store.list('exports/listed/')).sort()).toEqual(['exports/listed/a1/poster.jpg', 'exports/listed/a1/video.mp4', 'exports/listed/b2/video.mp4']);
    expect(await store.list('exports/never/')).toEqual([]);
    await expect(store.list('exports/listed')).rejects.toThrow(/Invalid blob prefix/);
    await expect(store.list('../')).rejects.toThrow(/Invalid blob key/);
  });

  it('refuses keys that could leave its folder or be read two ways', async () => {
    const store = open();
    for (const key of ['../etc/passwd', '/abs', 'a//b', 'a/../b', '.hidden', 'a b', '']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
    }
  });
}

describe('the local blob store', () => {
  behavesAsABlobStore(() => createBlobStore({ kind: 'local', dir: join(dir, 'local') }));

  it('removes the folders a delete leaves empty, never its own, and never one a put is filling', async () => {
    const root = join(dir, 'tidy');
    const store = createBlobStore({ kind: 'local', dir: root });
    await store.put('exports/e1/t1/video.mp4', Buffer.from('x'));
    await store.put('exports/e1/t2/video.mp4', Buffer.from('x'));
    await store.delete('exports/e1/t1/video.mp4');
    expect(await readdir(join(root, 'exports', 'e1'))).toEqual(['t2']);
    await store.delete('exports/e1/t2/video.mp4');
    expect(await readdir(root)).toEqual([]);

    // A put racing the delete of the folder's last blob: the put always lands.
    for (let i = 0; i < 200; i++) {
      await store.put('renders/r/images/1.png', Buffer.from('x'));
      await Promise.all([store.delete('renders/r/images/1.png'), store.put(`renders/r/images/${i + 2}.png`, Buffer.from('y'))]);
      expect(await store.list('renders/r/')).toEqual([`renders/r/images/${i + 2}.png`]);
      await store.delete(`renders/r/images/${i + 2}.png`);
    }
  });
});

describe('the S3 blob store, against a real S3-compatible server (versitygw)', () => {
  let server: RunningS3 | null = null;
  let skipped: string | null = null;
  beforeAll(async () => {
    const found = await findS3Server();
    if ('missing' in found) {
      skipped = found.missing;
      return;
    }
    server = await startS3Server(found.path);
    const admin = new S3Client({ endpoint: server.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: server });
    await admin.send(new CreateBucketCommand({ Bucket: 'videos' }));
    admin.destroy();
  }, 600_000); // a first run on a clean machine builds the server with Go
  afterAll(() => server?.stop());

  const open = () => {
    if (!server) throw new Error(`No S3 server: ${skipped}`);
    return createBlobStore({
      kind: 's3', endpoint: server.endpoint, bucket: 'videos', region: 'us-east-1',
      accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey, forcePathStyle: true,
    });
  };
  behavesAsABlobStore(open);

  it('keeps taking puts, lookups and more readers while many viewers hold their streams open', async () => {
    const store = open();
    // Large enough that a reader who takes nothing holds its connection: the socket's buffers fill.
    await store.put('exports/popular/video.mp4', Buffer.alloc(4 * 1024 * 1024, 7));
    const within = <T>(work: Promise<T>) => Promise.race([
      work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('queued behind the open streams')), 5000)),
    ]);
    const viewers = await within(Promise.all(Array.from({ length: 80 }, () => store.read('exports/popular/video.mp4'))));
    try {
      await within(store.put('renders/busy/images/1.png', Buffer.from('x')));
      expect((await within(store.stat('exports/popular/video.mp4')))?.size).toBe(4 * 1024 * 1024);
      const late = await within(store.read('exports/popular/video.mp4', { start: 0, end: 3 }));
      expect(await text(late)).toBe('\x07\x07\x07\x07');
    } finally {
      await Promise.all(viewers.map((stream) => stream.cancel()));
    }
  }, 30_000);

  /** A store whose server takes the connection and the request, and never answers. */
  async function silentStore(settings: { stalledAfterMs?: number } = {}) {
    const silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void silent.close());
    return createBlobStore({
      kind: 's3', endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, bucket: 'videos', region: 'us-east-1',
      accessKeyId: 'key', secretAccessKey: 'secret', forcePathStyle: true, ...settings,
    });
  }

  it('gives a put up when its signal is aborted, against a server that stopped answering', async () => {
    const store = await silentStore();
    const given = new AbortController();
    const put = store.put('exports/x/video.mp4', Buffer.from('x'), { signal: given.signal });
    setTimeout(() => given.abort(new Error('the try was cancelled')), 200);
    await expect(put).rejects.toThrow();
  });

  it('fails a lookup and a put, with no signal given, against a server that stopped answering', async () => {
    const store = await silentStore({ stalledAfterMs: 300 });
    await expect(store.stat('exports/x/video.mp4')).rejects.toThrow();
    await expect(store.put('exports/x/video.mp4', Buffer.from('x'))).rejects.toThrow();

    // A file's put that fails, or is given up, leaves the file closed.
    const file = join(dir, 'unsent.mp4');
    await writeFile(file, Buffer.alloc(10 * 1024 * 1024));
    const openOnFile = async () => {
      const fds = await readdir('/proc/self/fd');
      return (await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')))).filter((target) => target === file).length;
    };
    await expect(store.put('exports/x/video.mp4', { file })).rejects.toThrow();
    const given = new AbortController();
    setTimeout(() => given.abort(new Error('the try was cancelled')), 50);
    await expect(store.put('exports/x/video.mp4', { file }, { signal: given.signal })).rejects.toThrow();
    expect(await openOnFile()).toBe(0);
  });

  it('is refused by the server with the wrong secret (requests are really signed)', async () => {
    if (!server) throw new Error(`No S3 server: ${skipped}`);
    const wrong = createBlobStore({
      kind: 's3', endpoint: server.endpoint, bucket: 'videos', region: 'us-east-1',
      accessKeyId: server.accessKeyId, secretAccessKey: 'not-the-secret', forcePathStyle: true,
    });
    await expect(wrong.put('exports/x/video.mp4', Buffer.from('x'))).rejects.toThrow();
  });
});
