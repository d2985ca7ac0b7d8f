import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { aptPackages, RENDER_FONTS as FONTS, RENDER_TOOLS as TOOLS } from '@vp/render/system-packages';

const canApt = () => process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

function aptInstall(packages: string[]): void {
  const install = () => execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    install();
  }
}

function present(tool: (typeof TOOLS)[number]): boolean {
  return spawnSync(tool.command, tool.args, { stdio: 'ignore' }).status === 0;
}

function fontPresent(font: (typeof FONTS)[number]): boolean {
  const listed = spawnSync('fc-list', [`:family=${font.family}`, 'family'], { encoding: 'utf8' });
  return listed.status === 0 && listed.stdout.trim() !== '';
}

/**
 * Checks ffmpeg, ffprobe, espeak-ng and, on Linux, the fonts. Missing ones are installed with
 * apt-get when this runs as root on Debian or Ubuntu. Otherwise a missing tool stops the process
 * with the commands to run; a missing font only warns, as the renderer then types with another.
 */
export async function ensureSystemTools(): Promise<void> {
  let missing = TOOLS.filter((tool) => !present(tool));
  const fontsMissing = () => (process.platform === 'linux' ? FONTS.filter((font) => !fontPresent(font)) : []);
  let fonts = fontsMissing();
  if (!missing.length && !fonts.length) return;
  const packages = aptPackages([...missing, ...fonts]);
  if (canApt()) {
    console.log(`Installing ${packages.join(', ')} with apt-get…`);
    aptInstall(packages);
    missing = TOOLS.filter((tool) => !present(tool));
    fonts = fontsMissing();
  }
  if (fonts.length) {
    console.warn(`Fonts not found: ${fonts.map((f) => f.family).join(', ')}; text in the videos falls back to other fonts. `
      + `Install them with: sudo apt-get install -y ${aptPackages(fonts).join(' ')}`);
  }
  if (missing.length) {
    console.error([
      `Missing ${missing.map((t) => t.command).join(', ')}: the renderer draws video with ffmpeg and speaks voiceover with espeak-ng.`,
      'Install them, then run the command again:',
      `  Debian/Ubuntu: sudo apt-get install -y ${aptPackages([...missing, ...FONTS]).join(' ')}`,
      `  macOS:         brew install ${[...new Set(missing.map((t) => t.brew))].join(' ')}`,
    ].join('\n'));
    process.exit(1);
  }
}

/** Debian's Chromium, which the app's browser tests drive (services/app/src/testing/browser.ts). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * For the tests only: Chromium at /usr/bin/chromium, installed with apt-get as root on Debian or
 * Ubuntu. Elsewhere a missing one is named with the line to run; the browser tests then fail saying so.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (canApt()) {
    console.log('Installing chromium with apt-get (for the app\'s browser tests)…');
    aptInstall(['chromium']);
    if (existsSync(CHROMIUM)) return;
  }
  console.warn(`Chromium is not at ${CHROMIUM}: the app's browser tests will fail. Install it with: sudo apt-get install -y chromium`);
}
