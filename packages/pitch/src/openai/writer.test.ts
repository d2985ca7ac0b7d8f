import type { Pitch } from '@vp/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBuiltinPitch } from '../builtin/writer.ts';
import { completion, startChatServer, type ChatReply, type ChatRequest } from '../testing/chat-server.ts';
import { brief, codeFile, image } from '../testing/briefs.ts';
import { validatePitchFor } from '../validate.ts';
import { PitchWriterError, type WriteInput } from '../writer.ts';
import { createOpenAiWriter, type OpenAiWriterOptions } from './writer.ts';

const b = brief({
  intent: 'Announce CSV export of invoices',
  media: [image('hero', 'Export menu')],
  code: [codeFile('src/billing/export.ts', { score: 0.9 })],
  format: { durationMs: 10_000 },
  brand: { name: 'Ledgerly' },
});
const input: WriteInput = { brief: b, version: 1, previous: null, comments: [] };

/** What a model would answer: a pitch without the fields the service fills in. */
function modelAnswer(overrides: Partial<Pitch> = {}): string {
  const { version: _v, createdAt: _c, estimatedCredits: _e, ...pitch } = { ...writeBuiltinPitch(input, '2026-01-01T00:00:00.000Z'), ...overrides };
  return JSON.stringify({ ...pitch, shots: pitch.shots.map(({ index: _i, ...shot }) => shot) });
}

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function serve(reply: (request: ChatRequest, n: number) => ChatReply, options: Partial<OpenAiWriterOptions> = {}) {
  const server = await startChatServer(reply);
  close = server.close;
  const writer = createOpenAiWriter({ baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'pitch-model', timeoutMs: 2000, retryDelayMs: 5, ...options });
  return { writer, requests: server.requests };
}

async function failure(promise: Promise<unknown>): Promise<PitchWriterError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(PitchWriterError);
  return error as PitchWriterError;
}

describe('the OpenAI-compatible writer', () => {
  it('asks the endpoint for a JSON pitch and returns it with version, createdAt and credits filled in', async () => {
    const { writer, requests } = await serve(() => completion(modelAnswer()));
    const pitch = await writer.write({ ...input, version: 4 });
    expect(pitch.version).toBe(4);
    expect(pitch.estimatedCredits).toBe(10);
    expect(Date.parse(pitch.createdAt)).not.toBeNaN();
    expect(pitch.shots.map((s) => s.index)).toEqual(pitch.shots.map((_, i) => i));
    expect(validatePitchFor(b, pitch)).toEqual([]);

    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body.model).toBe('pitch-model');
    expect(request?.body.response_format).toEqual({ type: 'json_object' });
    expect(request?.body.messages[0]?.role).toBe('system');
    expect(request?.body.messages[0]?.content).toMatch(/"durationMs": integer, +\/\/ 500 to 60000/);
    expect(request?.body.messages[1]?.content).toContain('Announce CSV export of invoices');
    expect(request?.body.messages[1]?.content).toContain('add up to exactly 10000');
  });

  it('sends no Authorization header when no key is set, and tolerates a trailing slash', async () => {
    const server = await startChatServer(() => completion(modelAnswer()));
    close = server.close;
    await createOpenAiWriter({ baseUrl: `${server.baseUrl}/`, apiKey: '', model: 'local', timeoutMs: 2000 }).write(input);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('gives the model the previous pitch and the comments, the latest one to answer', async () => {
    const { writer, requests } = await serve(() => completion(modelAnswer()));
    const previous = writeBuiltinPitch(input, '2026-01-01T00:00:00.000Z');
    await writer.write({ brief: b, version: 2, previous, comments: [{ comment: 'Make it more playful', pitchVersion: 1 }] });
    const user = requests[0]?.body.messages[1]?.content ?? '';
    expect(user).toContain('The previous pitch (version 1)');
    expect(user).toContain('This version answers the latest comment: "Make it more playful"');
  });

  it('retries an answer that is not JSON, telling the model what was wrong', async () => {
    const { writer, requests } = await serve((_, n) => completion(n === 1 ? 'Sure! Here is your pitch: {' : modelAnswer()));
    const pitch = await writer.write(input);
    expect(pitch.title).toBeTruthy();
    expect(requests).toHaveLength(2);
    const retry = requests[1]!.body.messages;
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'Sure! Here is your pitch: {' });
    expect(retry.at(-1)?.content).toMatch(/not valid JSON/);
  });

  it('sends the problems back when the durations do not add up, and accepts the corrected pitch', async () => {
    const wrong = JSON.parse(modelAnswer()) as { shots: { durationMs: number }[] };
    wrong.shots[0]!.durationMs += 1000;
    const { writer, requests } = await serve((_, n) => completion(n === 1 ? JSON.stringify(wrong) : modelAnswer()));
    const pitch = await writer.write(input);
    expect(pitch.shots.reduce((sum, s) => sum + s.durationMs, 0)).toBe(10_000);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body.messages.at(-1)?.content).toContain("the shots' durationMs add up to 11000 ms; they must add up to exactly 10000 ms");
  });

  it('cuts a voiceover line too long for its time to fit, rather than failing the pitch', async () => {
    const shots = JSON.parse(modelAnswer()).shots as Pitch['shots'];
    const long = 'Invoices now export to CSV in one click. Totals and taxes come per line, and every currency is kept exactly as billed.';
    shots[0] = { ...shots[0]!, voiceover: long };
    const { writer, requests } = await serve(() => completion(JSON.stringify({ ...JSON.parse(modelAnswer()), shots })));
    const pitch = await writer.write(input);
    expect(requests).toHaveLength(1);
    expect(pitch.shots[0]!.voiceover).toBe('Invoices now export to CSV in one click.');
    expect(validatePitchFor(b, pitch)).toEqual([]);
  });

  it('says an on-screen text too long for its box or its time in its first sentence, and writes the visual from the layouts', async () => {
    const answer = JSON.parse(modelAnswer()) as { shots: Pitch['shots'] };
    const at = answer.shots.findIndex((shot) => shot.codePaths.length);
    answer.shots[at] = { ...answer.shots[at]!, text: 'Invoices export to CSV. Totals and taxes come per line, and every currency is kept exactly as billed, down to the cent, for every customer.', visual: 'A spinning 3D cube.' };
    const { writer, requests } = await serve(() => completion(JSON.stringify(answer)));
    const pitch = await writer.write(input);
    expect(requests).toHaveLength(1);
    expect(pitch.shots[at]!.text).toBe('Invoices export to CSV.');
    expect(pitch.shots[at]!.visual).not.toContain('cube');
    expect(pitch.shots[at]!.visual).toMatch(/The editor for `src\/billing\/export\.ts`.*Layout \(wide 16:9\): the heading at the top left, the editor window filling the frame below it/);
    expect(requests[0]!.body.messages[1]!.content).toMatch(/On screen \(a 16:9 frame\), at the smallest type: the first shot's title about \d+ characters/);
  });

  it('sends back a title too long for the screen, and a text that trails off with an ellipsis of its own', async () => {
    const wrong = JSON.parse(modelAnswer()) as { shots: Pitch['shots'] };
    wrong.shots[1] = { ...wrong.shots[1]!, title: 'Invoices finally export to CSV in one single click from every single page of the billing dashboard, at last' };
    wrong.shots[0] = { ...wrong.shots[0]!, text: 'Invoices export in…' };
    const { writer, requests } = await serve((_, n) => completion(n === 1 ? JSON.stringify(wrong) : modelAnswer()));
    await writer.write(input);
    expect(requests).toHaveLength(2);
    const sentBack = requests[1]!.body.messages.at(-1)?.content;
    expect(sentBack).toMatch(/shots\[1\]\.title does not fit on screen: it holds about \d+ characters \(1 line at the smallest type\); write it shorter/);
    expect(sentBack).toContain('shots[0].text ends on an ellipsis, as if cut: write it whole, shorter');
  });

  it('fails clearly when the model keeps referring to media the brief does not have', async () => {
    const ghost = modelAnswer({ shots: [{ index: 0, title: 'All', durationMs: 10_000, beat: null, visual: 'x', text: null, voiceover: null, mediaIds: ['ghost'], codePaths: [] }] });
    const { writer, requests } = await serve(() => completion(ghost));
    const error = await failure(writer.write(input));
    expect(requests).toHaveLength(3);
    expect(error.failure).toBe('invalid_pitch');
    expect(error.message).toMatch(/^The pitch writer's model did not write a valid pitch after 3 attempts: .*"ghost", which is not a media id of the brief/);
  });

  it('fails clearly when the model never answers with JSON', async () => {
    const { writer } = await serve(() => completion('I cannot do that.'));
    const error = await failure(writer.write(input));
    expect(error.message).toMatch(/^The pitch writer's model did not answer with valid JSON after 3 attempts: the answer was not valid JSON/);
  });

  it('retries server errors with backoff, then gives up with a clear error', async () => {
    const { writer, requests } = await serve(() => ({ status: 500, json: { error: { message: 'upstream exploded' } } }));
    const error = await failure(writer.write(input));
    expect(requests).toHaveLength(3);
    expect(error.failure).toBe('http');
    expect(error.message).toBe("The pitch writer's endpoint kept failing after 3 attempts: HTTP 500 Internal Server Error: upstream exploded");
  });

  it('waits out a 429 and succeeds on the next try', async () => {
    const { writer, requests } = await serve((_, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '0' }, json: { error: 'slow down' } } : completion(modelAnswer())));
    await writer.write(input);
    expect(requests).toHaveLength(2);
  });

  it.each([
    [401, /refused the API key \(HTTP 401\); check the key: bad key/],
    [403, /denied access \(HTTP 403\)/],
    [404, /answered 404 Not Found; check the base URL and the model name/],
    [400, /rejected the request as invalid \(HTTP 400\)/],
  ])('does not retry a %i and says what to check', async (status, message) => {
    const { writer, requests } = await serve(() => ({ status, json: { error: { message: 'bad key' } } }));
    const error = await failure(writer.write(input));
    expect(requests).toHaveLength(1);
    expect(error.failure).toBe('refused');
    expect(error.message).toMatch(/^The pitch writer's endpoint /);
    expect(error.message).toMatch(message);
  });

  it('gives up on a server slower than the timeout after retrying, with a clear timeout error', async () => {
    // The server holds its answers until the writer has given up: only its time limit can end each attempt.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const { writer, requests } = await serve(() => ({ ...completion(modelAnswer()), after: held }), { timeoutMs: 150, maxAttempts: 2 });
    const error = await failure(writer.write(input));
    answer();
    expect(requests).toHaveLength(2);
    expect(error.failure).toBe('timeout');
    expect(error.message).toBe("The pitch writer's endpoint did not answer within 150 ms, 2 attempts in a row.");
  });

  it('says so when the endpoint cannot be reached', async () => {
    const server = await startChatServer(() => completion(''));
    await server.close();
    const writer = createOpenAiWriter({ baseUrl: server.baseUrl, apiKey: null, model: 'm', timeoutMs: 1000, maxAttempts: 2, retryDelayMs: 5 });
    const error = await failure(writer.write(input));
    expect(error.failure).toBe('unreachable');
    expect(error.message).toMatch(/^The pitch writer's endpoint could not be reached after 2 attempts: could not reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  it('trims code sources to a budget so a large brief stays a sensible request', async () => {
    const big = brief({ ...b, code: Array.from({ length: 40 }, (_, i) => codeFile(`src/file-${i}.ts`, { source: 'x'.repeat(200_000), score: i / 40 })) });
    const { writer, requests } = await serve(() => completion(modelAnswer({ shots: [{ index: 0, title: 'All', durationMs: 10_000, beat: null, visual: 'x', text: null, voiceover: null, mediaIds: [], codePaths: ['src/file-39.ts'] }] })));
    await writer.write({ ...input, brief: big });
    const user = requests[0]!.body.messages[1]!.content;
    expect(user.length).toBeLessThan(40_000);
    const sent = JSON.parse(user.split('The brief:\n')[1]!.split('\n\n')[0]!) as { code: { path: string; excerpt?: string; excerptOmitted?: true; source?: string }[] };
    expect(sent.code).toHaveLength(40);
    expect(sent.code[0]?.path).toBe('src/file-39.ts'); // the best-ranked change is read first
    expect(sent.code[0]?.excerpt?.length).toBeLessThanOrEqual(4000);
    expect(sent.code.at(-1)).toMatchObject({ path: 'src/file-0.ts', excerptOmitted: true });
    expect(sent.code.every((file) => file.source === undefined)).toBe(true);
  });
});
