import type { Pitch, Shot } from '@vp/contracts';

/** A pitch as markdown a person reads in an e-mail, a webhook payload or a page. */
export function pitchMarkdown(pitch: Pitch): string {
  const total = pitch.shots.reduce((sum, shot) => sum + shot.durationMs, 0);
  const out = [
    `# ${inline(pitch.title)}`,
    '',
    `*Pitch version ${pitch.version} · ${seconds(total)} · ${pitch.shots.length} shot${pitch.shots.length === 1 ? '' : 's'} · estimated ${credits(pitch.estimatedCredits)}*`,
    '',
  ];
  if (pitch.verdict === 'skip') out.push(`> **No video:** ${inline(pitch.verdictReason ?? 'the brief was judged not worth a video.')}`, '');
  out.push(pitch.summary.trim(), '', '## Shots', '');
  let start = 0;
  pitch.shots.forEach((shot, i) => {
    out.push(...shotLines(shot, i + 1, start));
    start += shot.durationMs;
  });
  if (pitch.music) out.push('', '## Music', '', inline(pitch.music));
  out.push('', `**Estimated credits:** ${pitch.estimatedCredits}`);
  return out.join('\n') + '\n';
}

function shotLines(shot: Shot, number: number, startMs: number): string[] {
  const lines = [`${number}. **${inline(shot.title)}** · ${clock(startMs)}–${clock(startMs + shot.durationMs)} (${seconds(shot.durationMs)})`];
  const detail = (label: string, value: string | null) => {
    if (value?.trim()) lines.push(`   - ${label}: ${inline(value)}`);
  };
  detail('Beat', shot.beat);
  detail('Visual', shot.visual);
  detail('On screen', shot.text && `“${shot.text}”`);
  detail('Voiceover', shot.voiceover && `“${shot.voiceover}”`);
  detail('Media', shot.mediaIds.length ? shot.mediaIds.join(', ') : null);
  detail('Code', shot.codePaths.length ? shot.codePaths.map((p) => `\`${p.replace(/`/g, "'")}\``).join(', ') : null);
  return lines;
}

/** Keeps a field on its list item's line. */
const inline = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();
const seconds = (ms: number) => `${trim(ms / 1000)} s`;
const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const trim = (value: number) => (Math.round(value * 10) / 10).toString();

function clock(ms: number): string {
  const tenths = Math.round(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const rest = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return `${minutes}:${rest}`;
}
