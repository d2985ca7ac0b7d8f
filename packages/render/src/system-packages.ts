/**
 * What the renderer needs from the machine, and the packages that provide it: read by the
 * render worker's check at start and by the README's commands, which install what is missing.
 * No imports, so a script can read it without loading the renderer.
 */

/** The programs the renderer runs. */
export const RENDER_TOOLS = [
  { command: 'ffmpeg', args: ['-version'], apt: 'ffmpeg', brew: 'ffmpeg' },
  { command: 'ffprobe', args: ['-version'], apt: 'ffmpeg', brew: 'ffmpeg' },
  { command: 'espeak-ng', args: ['--version'], apt: 'espeak-ng', brew: 'espeak-ng' },
] as const;

/**
 * The font families it types with, and their Debian packages: text, symbols, CJK, emoji and
 * code; then the brand fonts most often asked for, so that a brand naming one gets it.
 */
export const RENDER_FONTS = [
  { family: 'Noto Sans', apt: 'fonts-noto-core' },
  { family: 'DejaVu Sans', apt: 'fonts-dejavu-core' },
  { family: 'Noto Sans CJK JP', apt: 'fonts-noto-cjk' },
  { family: 'Noto Color Emoji', apt: 'fonts-noto-color-emoji' },
  { family: 'JetBrains Mono', apt: 'fonts-jetbrains-mono' },
  { family: 'Inter', apt: 'fonts-inter' },
  { family: 'Roboto', apt: 'fonts-roboto' },
  { family: 'Open Sans', apt: 'fonts-open-sans' },
  { family: 'Lato', apt: 'fonts-lato' },
] as const;

/** The Debian packages that provide these tools and fonts, each named once. */
export function aptPackages(needed: readonly { apt: string }[]): string[] {
  return [...new Set(needed.map((item) => item.apt))];
}
