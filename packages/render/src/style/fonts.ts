import { GlobalFonts } from '../canvas.ts';

/**
 * Installed with the packages of RENDER_FONTS (see system-packages.ts): DejaVu covers symbols
 * Noto Sans lacks, Noto Sans CJK Chinese, Japanese and Korean, and release notes and commit
 * messages are full of emoji. Code is typed in JetBrains Mono.
 */
const CJK_AND_EMOJI = ['Noto Sans CJK JP', 'Noto Color Emoji'];
const SANS_FALLBACK = ['Noto Sans', 'DejaVu Sans', ...CJK_AND_EMOJI];
const MONO = ['JetBrains Mono', 'DejaVu Sans Mono', ...CJK_AND_EMOJI];

function quote(family: string): string {
  return `"${family.replace(/["\\]/g, '')}"`;
}

/** The installed family that matches `name`, ignoring case, if any. */
export function installedFamily(name: string): string | null {
  const wanted = name.trim().toLowerCase();
  return GlobalFonts.families.find((f) => f.family.toLowerCase() === wanted)?.family ?? null;
}

/** A CSS font-family list: the brand's font when installed, then the fallbacks. */
export function sansStack(requested: string | null): string {
  const brand = requested ? installedFamily(requested) : null;
  return [...(brand ? [brand] : []), ...SANS_FALLBACK].map(quote).join(', ');
}

export function monoStack(): string {
  return MONO.map(quote).join(', ');
}

export function font(size: number, family: string, weight: 400 | 500 | 600 | 700 | 800 = 400): string {
  return `${weight} ${Math.max(1, Math.round(size))}px ${family}`;
}
