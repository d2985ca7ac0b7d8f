import { describe, expect, it } from 'vitest';
import { RenderError } from './errors.ts';
import { run, startChild } from './process.ts';

describe('startChild', () => {
  it('gives stdout of a tool that succeeds, and a RenderError with the stated failure otherwise', async () => {
    expect(String(await run('sh', ['-c', 'printf made'], { failure: 'unused' }))).toBe('made');
    const error = await run('sh', ['-c', 'echo broken >&2; exit 3'], { failure: 'The tool failed' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect(error).toMatchObject({ message: 'The tool failed', details: expect.stringContaining('exited with 3: broken') });
  });

  it('kills the tool when the signal aborts, and one started after the abort as well', async () => {
    const stop = new AbortController();
    const running = startChild('sleep', ['30'], { signal: stop.signal, failure: 'unused' });
    stop.abort(new Error('stopped'));
    await expect(running.done).rejects.toThrow('stopped');
    expect(running.process.signalCode).toBe('SIGKILL');

    const late = startChild('sleep', ['30'], { signal: stop.signal, failure: 'unused' });
    await expect(late.done).rejects.toThrow('stopped');
    expect(late.process.signalCode).toBe('SIGKILL');
  });
});
