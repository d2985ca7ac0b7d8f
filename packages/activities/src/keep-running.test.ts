import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepRunning } from './keep-running.ts';

describe('keeping a task running (a worker\'s upkeep)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at once, then again every period, reports a failed run and goes on, and stops with the worker', async () => {
    // What the next sweeps find: a leftover, a failure, nothing, another leftover.
    const finds: Array<string[] | Error> = [['left-before-start'], new Error('the store did not answer'), [], ['left-while-running']];
    let sweeps = 0;
    const sweep = async () => {
      sweeps += 1;
      const found = finds.shift() ?? [];
      if (found instanceof Error) throw found;
      return found;
    };
    const stop = new AbortController();
    const reported: string[] = [];
    keepRunning(sweep, { everyMs: 100, signal: stop.signal, onDone: (removed) => reported.push(...removed), onError: (error) => reported.push(String(error)) });
    expect(sweeps).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(sweeps).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sweeps).toBe(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(sweeps).toBe(4);
    expect(reported).toEqual(['left-before-start', 'Error: the store did not answer', 'left-while-running']);

    // Stopped: however long the worker goes on shutting down, no sweep follows.
    stop.abort();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweeps).toBe(4);
  });

  it('does not start once the worker has stopped', () => {
    const stop = new AbortController();
    stop.abort();
    let sweeps = 0;
    keepRunning(async () => [String(++sweeps)], { everyMs: 100, signal: stop.signal, onDone: () => {}, onError: () => {} });
    expect(sweeps).toBe(0);
  });
});
