/**
 * A video at a glance: its frames every half second, with their times, on one PNG.
 *
 *   pnpm contact-sheet <video file | production id> [--out sheet.png] [--every 0.5] [--width 320]
 *
 * A production id is looked up in the database (DATABASE_URL, else the running dev stack's) and
 * its delivered video read from the blob store. The sheet is written beside the video, or as
 * `<production id>.contact-sheet.png` in the current folder, unless `--out` says where.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createBlobStore } from '@vp/blobs';
import { loadConfig, loadDevEnv } from '@vp/config';
import { createDb } from '@vp/db';
import { contactSheet, framesEvery } from '@vp/render';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USAGE = 'usage: pnpm contact-sheet <video file | production id> [--out sheet.png] [--every 0.5] [--width 320]';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, every: { type: 'string', default: '0.5' }, width: { type: 'string' } },
});
const [input] = positionals;
const everyMs = Math.round(Number(values.every) * 1000);
if (!input || positionals.length > 1 || !(everyMs >= 100)) {
  console.error(USAGE);
  process.exit(2);
}

/** The production's delivered video, copied from the blob store into `dir`. */
async function deliveredVideo(productionId: string, dir: string): Promise<string> {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const config = loadConfig(loadDevEnv(`${root}.data/dev.env`));
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set and no dev stack is running (start one with `pnpm dev`).');
  const db = createDb(config.databaseUrl, { max: 1 });
  try {
    const project = await db.project.findUnique({ where: { productionId }, select: { id: true } });
    if (!project) throw new Error(`Production ${productionId} has no video: it is unknown, or was never greenlit.`);
    const done = await db.export.findFirst({ where: { projectId: project.id, status: 'done', videoKey: { not: null } }, orderBy: { createdAt: 'desc' } });
    if (!done?.videoKey) throw new Error(`Production ${productionId} has no finished video yet.`);
    const file = join(dir, 'video.mp4');
    await writeFile(file, await createBlobStore(config.blobs).get(done.videoKey));
    return file;
  } finally {
    await db.$disconnect();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'vp-contact-sheet-'));
try {
  const isFile = existsSync(input);
  if (!isFile && !UUID.test(input)) throw new Error(`${input} is neither a video file nor a production id.`);
  const video = isFile ? input : await deliveredVideo(input, dir);
  // Small enough to look at whole: 320 pixels on the longer side, unless --width says otherwise.
  const thumbs = await framesEvery(video, { everyMs, ...(values.width ? { width: Number(values.width) } : { longSide: 320 }) });
  const out = values.out ?? (isFile ? `${input.replace(/\.[^./]+$/, '')}.contact-sheet.png` : `${input}.contact-sheet.png`);
  await writeFile(out, await contactSheet(thumbs, { title: `${isFile ? basename(input) : `Production ${input}`}: a frame every ${everyMs / 1000} s` }));
  console.log(`${out}: ${thumbs.length} frames`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
