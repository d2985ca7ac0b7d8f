import { describe, expect, it } from 'vitest';
import { arrivalFigures, type RecordedDelivery } from './figures.ts';
import type { Arrival } from './receiver.ts';

const GAP = 2000;
const delivered = (eventId: string, at: number): RecordedDelivery => ({ path: '/hook-a', eventId, status: 'succeeded', deliveredAt: new Date(at) });
const arrival = (eventId: string, at: number, path = '/hook-a'): Arrival => ({ path, eventId, type: 'production.greenlit', at });

describe("the chaos run's account of webhook arrivals", () => {
  it('takes a send repeated after a lost answer, before the success was recorded, as at-least-once delivery', () => {
    const figures = arrivalFigures([delivered('e1', 20_050)], [arrival('e1', 20_000), arrival('e1', 1_000)], GAP);
    expect(figures).toMatchObject({ arrivals: 2, resentEvents: 1, sentAfterRecorded: 0, hastyRepeats: 0, missing: 0 });
  });

  it('counts a request that arrived after its delivery was recorded', () => {
    const figures = arrivalFigures([delivered('e1', 1_050)], [arrival('e1', 1_000), arrival('e1', 30_000)], GAP);
    expect(figures.sentAfterRecorded).toBe(1);
  });

  it('counts a repeat that came sooner than any retry waits: two sends at once', () => {
    const figures = arrivalFigures([delivered('e1', 1_500)], [arrival('e1', 1_000), arrival('e1', 1_200)], GAP);
    expect(figures).toMatchObject({ hastyRepeats: 1, sentAfterRecorded: 0 });
  });

  it('counts a succeeded delivery that never arrived, and keeps endpoints apart', () => {
    const figures = arrivalFigures([delivered('e1', 1_050), delivered('e2', 1_050)], [arrival('e1', 1_000), arrival('e2', 1_000, '/hook-b')], GAP);
    expect(figures).toMatchObject({ missing: 1, resentEvents: 0 });
  });
});
