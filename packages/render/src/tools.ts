import { RenderError } from './errors.ts';
import { run } from './process.ts';
import { aptPackages, RENDER_FONTS, RENDER_TOOLS as TOOLS } from './system-packages.ts';

/** What the renderer asks of ffmpeg beyond a bare build. */
const FFMPEG_NEEDS = {
  encoders: ['libx264', 'aac'],
  // zscale and tonemap (libzimg) turn HDR clips into SDR; the others mix the soundtrack.
  filters: ['zscale', 'tonemap', 'ebur128', 'alimiter', 'sidechaincompress', 'amix'],
} as const;

/**
 * Checks that the system tools the renderer runs are installed, and that ffmpeg has the
 * encoders and filters it uses, for a worker to call at start: resolves with each tool's
 * version line, or fails with what to install.
 */
export async function checkRenderTools(): Promise<Record<(typeof TOOLS)[number]['command'], string>> {
  const versions: Partial<Record<(typeof TOOLS)[number]['command'], string>> = {};
  const missing: (typeof TOOLS)[number][] = [];
  for (const tool of TOOLS) {
    const out = await run(tool.command, [...tool.args], { failure: `${tool.command} does not run` }).catch(() => null);
    if (out) versions[tool.command] = out.toString().split('\n')[0]?.trim() ?? '';
    else missing.push(tool);
  }
  if (missing.length) {
    const install = aptPackages([...missing, ...RENDER_FONTS]).join(' ');
    throw new RenderError(`The renderer needs ${aptPackages(missing).join(' ')}: install with \`apt-get install -y ${install}\``);
  }
  const listing = async (list: string) => (await run('ffmpeg', ['-hide_banner', list], { failure: 'ffmpeg does not run' })).toString();
  const [encoders, filters] = await Promise.all([listing('-encoders'), listing('-filters')]);
  const lacks = ffmpegLacks({ encoders, filters });
  if (lacks.length) {
    throw new RenderError(`The renderer needs an ffmpeg with ${lacks.join(', ')}: install a full build (Debian's, Ubuntu's and Homebrew's ffmpeg have them)`);
  }
  return versions as Record<(typeof TOOLS)[number]['command'], string>;
}

/** What ffmpeg's `-encoders` and `-filters` listings leave out of what the renderer needs. */
export function ffmpegLacks(listings: { encoders: string; filters: string }): string[] {
  // Each listed line is its flags, then its name.
  const names = (listing: string) => new Set(listing.split('\n').map((line) => line.trim().split(/\s+/)[1]));
  const encoders = names(listings.encoders);
  const filters = names(listings.filters);
  return [
    ...FFMPEG_NEEDS.encoders.filter((name) => !encoders.has(name)).map((name) => `the ${name} encoder`),
    ...FFMPEG_NEEDS.filters.filter((name) => !filters.has(name)).map((name) => `the ${name} filter`),
  ];
}
