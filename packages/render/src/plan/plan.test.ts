import { describe, expect, it } from 'vitest';
import { composeProduction } from '../composition/compose-production.ts';
import { themeFor } from '../draw/theme.ts';
import { sampleBrief, samplePitch } from '../testing/fixtures.ts';
import { planComposition, type ScenePlan } from './plan.ts';

const url = (path: string) => `https://media.example.com${path}`;
const shown = (text: ScenePlan['body']) => text?.lines.join(' ') ?? null;

async function planOf(shots: Parameters<typeof samplePitch>[0]) {
  const composition = composeProduction({ brief: sampleBrief(url), pitch: samplePitch(shots) });
  return (await planComposition(composition, themeFor(composition.brand, null))).scenes;
}

describe('the texts of a scene', () => {
  it('leave out an eyebrow, subtitle or caption that only repeats the main text', async () => {
    const [title, statement, picture] = await planOf([
      { title: 'Release 2.4', durationMs: 2000, text: 'release 2.4!' },
      { title: 'The faster exports in 2.4', durationMs: 2000, text: 'The faster exports in 2.4' },
      { title: 'A new dashboard', durationMs: 2000, text: 'A new dashboard.', mediaIds: ['dashboard'] },
      { title: 'Call to action', durationMs: 2000, text: 'Try it today.' },
    ]);
    expect([shown(title!.body), shown(title!.sub)]).toEqual(['Release 2.4', null]);
    expect([shown(statement!.body), shown(statement!.sub)]).toEqual(['The faster exports in 2.4', null]);
    expect([shown(picture!.heading), shown(picture!.sub)]).toEqual(['A new dashboard', null]);
  });

  it('leave out an eyebrow that is the start of the statement, or the statement clipped', async () => {
    const [, clipped, lead] = await planOf([
      { title: 'Release 2.4', durationMs: 2000, text: 'Faster, safer fetching' },
      { title: 'Deliveries now retry with backoff and sig…', durationMs: 2000, text: 'Deliveries now retry with backoff and sign every request.' },
      { title: "What's new", durationMs: 2000, text: "What's new in 2.4" },
      { title: 'Call to action', durationMs: 2000, text: 'Try it today.' },
    ]);
    expect(shown(clipped!.sub)).toBeNull();
    expect(shown(lead!.sub)).toBeNull();
  });

  it('keep them when they add something', async () => {
    const [title, statement, picture] = await planOf([
      { title: 'Release 2.4', durationMs: 2000, text: 'Faster, safer fetching' },
      { title: 'Highlight', durationMs: 2000, text: 'Teams asked for it' },
      { title: 'A new dashboard', durationMs: 2000, text: 'A new dashboard for every render', mediaIds: ['dashboard'] },
      { title: 'Call to action', durationMs: 2000, text: 'Try it today.' },
    ]);
    expect(shown(title!.sub)).toBe('Faster, safer fetching');
    expect(shown(statement!.sub)).toBe('HIGHLIGHT');
    expect(shown(picture!.sub)).toBe('A new dashboard for every render');
  });
});
