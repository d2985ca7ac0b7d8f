import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { CreateRenderOptions } from '@vp/sdk';
import { str, type Command } from '../command.ts';
import { EXIT, line, printJson, UsageError } from '../io.ts';
import { statusLine } from '../spinner.ts';
import { intervalFrom } from '../watch.ts';

const RESOLUTIONS = ['480p', '720p', '1080p', '4K'] as const;
const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };

export const renderCommand: Command = {
  name: 'render',
  usage: 'render IMAGE… [--resolution 480p|720p|1080p|4K] [--background black|white] [--app-name NAME] [--accent COLOUR]',
  summary: 'The one-call renders API: 1 to 10 images in, a video out, with its progress.',
  options: { resolution: { type: 'string' }, background: { type: 'string' }, 'app-name': { type: 'string' }, accent: { type: 'string' } },
  async run(context, values, positionals) {
    if (positionals.length < 1 || positionals.length > 10) throw new UsageError('vp render takes 1 to 10 images');
    const resolution = str(values, 'resolution');
    if (resolution && !(RESOLUTIONS as readonly string[]).includes(resolution)) throw new UsageError(`--resolution is one of ${RESOLUTIONS.join(', ')}`);
    const background = str(values, 'background');
    if (background && background !== 'black' && background !== 'white') throw new UsageError('--background is black or white');
    const images = await Promise.all(positionals.map(async (path) => {
      const bytes = await readFile(resolve(context.cwd, path)).catch(() => {
        throw new UsageError(`Cannot read ${path}`);
      });
      const type = TYPES[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
      return { name: basename(path), data: new Blob([new Uint8Array(bytes)], { type }) };
    }));
    const options: CreateRenderOptions = {
      wait: false,
      resolution: resolution as CreateRenderOptions['resolution'],
      background: background as CreateRenderOptions['background'],
      appName: str(values, 'app-name'),
      accent: str(values, 'accent'),
    };
    const client = await context.client();
    const status = statusLine(context.stderr);
    const started = await client.renders.create(images, options);
    const render = await client.renders.waitFor(started.id, {
      intervalMs: intervalFrom(context.env),
      onProgress: (read) => status.update(`${read.status} ${Math.round(read.progress * (read.progress <= 1 ? 100 : 1))}%`),
    }).finally(() => status.stop());
    if (context.json) printJson(context.stdout, { render });
    else if (render.status === 'done') line(context.stdout, `Rendered: ${render.videoUrl}`);
    else line(context.stderr, `The render failed: ${render.error ?? 'no reason given'}`);
    return render.status === 'done' ? EXIT.done : EXIT.failed;
  },
};
