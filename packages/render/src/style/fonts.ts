import { GlobalFonts } from '@napi-rs/canvas';

/** Installed with fonts-noto-core and fonts-dejavu-core; the second also covers symbols Noto Sans lacks. */
const SANS_FALLBACK = ['Noto Sans', 'DejaVu Sans'];
const MONO = ['JetBrains Mono', 'DejaVu Sans Mono'];

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
