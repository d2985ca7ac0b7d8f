import { RenderError } from './errors.ts';
import { run } from './process.ts';

const TOOLS = [
  { command: 'ffmpeg', args: ['-version'], apt: 'ffmpeg' },
  { command: 'ffprobe', args: ['-version'], apt: 'ffmpeg' },
  { command: 'espeak-ng', args: ['--version'], apt: 'espeak-ng' },
] as const;

/**
 * Checks that the system tools the renderer runs are installed, for a worker to call at start:
 * resolves with each tool's version line, or fails with what to install.
 */
export async function checkRenderTools(): Promise<Record<(typeof TOOLS)[number]['command'], string>> {
  const versions: Partial<Record<(typeof TOOLS)[number]['command'], string>> = {};
  const missing: string[] = [];
  for (const tool of TOOLS) {
    const out = await run(tool.command, [...tool.args], { failure: `${tool.command} does not run` }).catch(() => null);
    if (out) versions[tool.command] = out.toString().split('\n')[0]?.trim() ?? '';
    else missing.push(tool.apt);
  }
  if (missing.length) {
    const packages = [...new Set(missing)].join(' ');
    throw new RenderError(`The renderer needs ${packages}: install with \`apt-get install -y ${packages} fonts-noto-core fonts-dejavu-core\``);
  }
  return versions as Record<(typeof TOOLS)[number]['command'], string>;
}
