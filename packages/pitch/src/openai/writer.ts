import { creditsFor, type Brief, type Pitch } from '@vp/contracts';
import { describeShots } from '@vp/render/layouts';
import { clip } from '../text.ts';
import { checkPitch } from '../validate.ts';
import { PitchWriterError, type PitchWriter, type PitchWriterFailure } from '../writer.ts';
import { ChatFailure, complete, type ChatEndpoint, type ChatMessage } from './chat.ts';
import { correction, SYSTEM_PROMPT, userPrompt } from './prompt.ts';

export type OpenAiWriterOptions = {
  /** Any OpenAI-compatible API root, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string;
  /** Sent as a bearer token when set; local servers often need none. */
  apiKey?: string | null;
  model: string;
  /** Per attempt, covering the whole answer. */
  timeoutMs: number;
  maxAttempts?: number;
  /** First wait before retrying a failed call; doubled each time. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
};

const MAX_RETRY_WAIT_MS = 30_000;

type Attempt = { failure: PitchWriterFailure; detail: string };

/** A writer for any OpenAI-compatible chat-completions endpoint, its answers held to the Pitch rules. */
export function createOpenAiWriter(options: OpenAiWriterOptions): PitchWriter {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const now = options.now ?? (() => new Date());
  const endpoint: ChatEndpoint = {
    baseUrl: options.baseUrl, apiKey: options.apiKey, model: options.model, timeoutMs: options.timeoutMs,
    fetch: options.fetch ?? globalThis.fetch,
  };

  return {
    async write(input) {
      const opening: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: userPrompt(input) }];
      let messages = opening;
      let last: Attempt = { failure: 'http', detail: 'no attempt was made' };
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        let content: string | null;
        try {
          content = await complete(endpoint, messages);
        } catch (error) {
          if (!(error instanceof ChatFailure)) throw error;
          if (!error.retryable) throw new PitchWriterError(`The pitch writer's endpoint ${error.message}`, 'refused', attempt);
          last = { failure: error.kind, detail: error.message };
          if (attempt < maxAttempts) await sleep(error.retryAfterMs ?? backoff(retryDelayMs, attempt));
          continue;
        }
        const answer = readAnswer(content, input.brief, input.version, now());
        if (answer.ok) return answer.pitch;
        last = { failure: answer.failure, detail: answer.problems.join('; ') };
        // A bad answer is retried at once (waiting does not help a model), and only the latest
        // one goes back with its problems, so the conversation stays small.
        messages = [...opening, { role: 'assistant', content: clip(content ?? '', 20_000) }, { role: 'user', content: correction(answer.problems) }];
      }
      throw new PitchWriterError(failureMessage(last, maxAttempts, endpoint.timeoutMs), last.failure, maxAttempts);
    },
  };
}

type Answer = { ok: true; pitch: Pitch } | { ok: false; failure: 'invalid_json' | 'invalid_pitch'; problems: string[] };

/** The model's JSON with the fields the service owns filled in, checked against the schema and the brief. */
function readAnswer(content: string | null, brief: Brief, version: number, at: Date): Answer {
  if (content === null) return { ok: false, failure: 'invalid_json', problems: ['the answer had no message content'] };
  let json: unknown;
  try {
    json = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch (error) {
    return { ok: false, failure: 'invalid_json', problems: [`the answer was not valid JSON (${(error as Error).message})`] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, failure: 'invalid_json', problems: ['the answer was JSON but not one object'] };
  }
  const draft = json as Record<string, unknown>;
  // The visual is the service's to write, from the layouts the renderer will draw (below); a preview, the renderer's to draw.
  const shots = Array.isArray(draft.shots)
    ? draft.shots.map((shot: unknown, index) => (typeof shot === 'object' && shot !== null ? { visual: 'A shot.', ...shot, index, previewUrl: undefined } : shot))
    : draft.shots;
  // Models miscount words against seconds and boxes: a line or text too long is said in fewer
  // words when whole sentences or a clause of it fit, and sent back otherwise.
  const checked = checkPitch(brief, {
    ...draft, shots, version, createdAt: at.toISOString(), estimatedCredits: creditsFor(brief.format.durationMs),
  }, { fitVoiceovers: true, fitScreenWords: true });
  if (!checked.ok) return { ok: false, failure: 'invalid_pitch', problems: checked.problems };
  const visuals = describeShots(brief, checked.pitch);
  return { ok: true, pitch: { ...checked.pitch, shots: checked.pitch.shots.map((shot, i) => ({ ...shot, visual: clip(visuals[i] || shot.visual, 2000) })) } };
}

function failureMessage(last: Attempt, attempts: number, timeoutMs: number): string {
  const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
  switch (last.failure) {
    case 'invalid_json':
      return `The pitch writer's model did not answer with valid JSON after ${tries}: ${clip(last.detail, 500)}`;
    case 'invalid_pitch':
      return `The pitch writer's model did not write a valid pitch after ${tries}: ${clip(last.detail, 800)}`;
    case 'timeout':
      return `The pitch writer's endpoint did not answer within ${timeoutMs} ms, ${tries} in a row.`;
    case 'unreachable':
      return `The pitch writer's endpoint could not be reached after ${tries}: ${last.detail}`;
    default:
      return `The pitch writer's endpoint kept failing after ${tries}: ${last.detail}`;
  }
}

function backoff(baseMs: number, attempt: number): number {
  const exponential = baseMs * 2 ** (attempt - 1);
  return Math.min(MAX_RETRY_WAIT_MS, exponential + Math.random() * exponential * 0.25);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, MAX_RETRY_WAIT_MS)));
