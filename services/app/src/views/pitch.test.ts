import { describe, expect, it } from 'vitest';
import { Pitch } from '@vp/contracts';
import { PitchView } from './pitch.tsx';

const pitch = Pitch.parse({
  version: 1, title: 'Faster exports', summary: 'Release 2.4 exports twice as fast.', estimatedCredits: 8, createdAt: '2026-11-29T12:00:00.000Z',
  shots: [
    { index: 0, title: 'Hook', durationMs: 4600, visual: 'The export bar, halved.' },
    { index: 1, title: 'Close', durationMs: 3000, visual: 'The logo.' },
  ],
});

describe("the app's pitch view", () => {
  it('writes where each shot sits to the nearest second, as the greenlight page does', async () => {
    const html = String(await PitchView({ pitch }));
    expect(html).toContain('0:00–0:05');
    expect(html).toContain('0:05–0:08');
  });
});
