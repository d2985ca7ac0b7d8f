import { execFileSync, spawnSync } from 'node:child_process';

/** Programs the renderer runs, and the Debian packages that provide them. */
const TOOLS = [
  { command: 'ffmpeg', args: ['-version'], apt: 'ffmpeg', brew: 'ffmpeg' },
  { command: 'ffprobe', args: ['-version'], apt: 'ffmpeg', brew: 'ffmpeg' },
  { command: 'espeak-ng', args: ['--version'], apt: 'espeak-ng', brew: 'espeak-ng' },
] as const;

const FONT_PACKAGES = ['fonts-dejavu-core', 'fonts-noto-core'];

function present(tool: (typeof TOOLS)[number]): boolean {
  return spawnSync(tool.command, tool.args, { stdio: 'ignore' }).status === 0;
}

/**
 * Checks ffmpeg, ffprobe and espeak-ng. Missing ones are installed with apt-get when this
 * runs as root on Debian or Ubuntu; otherwise the process stops with the commands to run.
 */
export async function ensureSystemTools(): Promise<void> {
  let missing = TOOLS.filter((tool) => !present(tool));
  if (!missing.length) return;
  const packages = [...new Set(missing.map((t) => t.apt)), ...FONT_PACKAGES];
  const canApt = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (canApt) {
    console.log(`Installing ${packages.join(', ')} with apt-get…`);
    const install = () => execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    try {
      install();
    } catch {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' });
      install();
    }
    missing = TOOLS.filter((tool) => !present(tool));
  }
  if (missing.length) {
    console.error([
      `Missing ${missing.map((t) => t.command).join(', ')}: the renderer draws video with ffmpeg and speaks voiceover with espeak-ng.`,
      'Install them, then run the command again:',
      `  Debian/Ubuntu: sudo apt-get install -y ${packages.join(' ')}`,
      `  macOS:         brew install ${[...new Set(missing.map((t) => t.brew))].join(' ')}`,
    ].join('\n'));
    process.exit(1);
  }
}
