import type { Pitch } from '@vp/contracts';
import { describe, expect, it } from 'vitest';
import { pitchMarkdown } from './markdown.ts';

const pitch: Pitch = {
  version: 2, verdict: 'video', verdictReason: null, title: 'Ledgerly 2.3', summary: 'Invoices export to CSV.',
  shots: [
    { index: 0, title: 'Intro', durationMs: 2400, beat: 'Hook', visual: 'The logo resolves.', text: 'Ledgerly 2.3', voiceover: 'Big news!', mediaIds: [], codePaths: [] },
    { index: 1, title: 'Export', durationMs: 7600, beat: null, visual: 'A code card\nslides in.', text: null, voiceover: null, mediaIds: ['hero'], codePaths: ['src/export.ts'] },
  ],
  music: 'Upbeat synth-pop', estimatedCredits: 10, createdAt: '2026-01-01T00:00:00.000Z',
};

describe('pitchMarkdown', () => {
  it('renders the title, summary, timed shot list, music and credits', () => {
    expect(pitchMarkdown(pitch)).toBe(`# Ledgerly 2.3

*Pitch version 2 · 10 s · 2 shots · estimated 10 credits*

Invoices export to CSV.

## Shots

1. **Intro** · 0:00.0–0:02.4 (2.4 s)
   - Beat: Hook
   - Visual: The logo resolves.
   - On screen: “Ledgerly 2.3”
   - Voiceover: “Big news!”
2. **Export** · 0:02.4–0:10.0 (7.6 s)
   - Visual: A code card slides in.
   - Media: hero
   - Code: \`src/export.ts\`

## Music

Upbeat synth-pop

**Estimated credits:** 10
`);
  });

  it('says why a skipped pitch makes no video', () => {
    const skipped = pitchMarkdown({ ...pitch, verdict: 'skip', verdictReason: 'Only lockfiles changed.', music: null });
    expect(skipped).toContain('> **No video:** Only lockfiles changed.');
    expect(skipped).not.toContain('## Music');
  });

  it('shows minutes past the first one', () => {
    const long = pitchMarkdown({ ...pitch, shots: [{ ...pitch.shots[0]!, durationMs: 60_000 }, { ...pitch.shots[1]!, durationMs: 60_000 }] });
    expect(long).toContain('0:00.0–1:00.0 (60 s)');
    expect(long).toContain('1:00.0–2:00.0 (60 s)');
  });
});
