import { BRAND_FIELDS } from '@vp/accounts';
import { CreateProductionBody, type Brand, type BriefInput } from '@vp/contracts';
import { codeItemsFromDiff } from './diff.ts';

/** The create form's fields as typed (sent back with its refusals). */
export type BriefFormValues = {
  intent: string; context: string; media: string; codePath: string; codeSource: string; diff: string;
  template: string; durationSeconds: string; aspect: string; sound: string[];
  brand: Record<(typeof BRAND_FIELDS)[number], string>;
};

const VIDEO_FILE = /\.(mp4|webm|mov|m4v)(\?|#|$)/i;

/** The form a workspace starts from: its saved brand in the brand fields, the API's defaults elsewhere. */
export function blankForm(brand: Brand): BriefFormValues {
  return {
    intent: '', context: '', media: '', codePath: '', codeSource: '', diff: '', template: 'changelog', durationSeconds: '10', aspect: '16:9',
    sound: ['voiceover', 'music', 'sfx'], brand: Object.fromEntries(BRAND_FIELDS.map((name) => [name, brand[name] ?? ''])) as BriefFormValues['brand'],
  };
}

/** Each media line: an address, then optionally a name ("https://… The new export dialog"). */
function mediaItems(text: string) {
  return text.split('\n').map((line) => line.trim()).filter(Boolean).map((line, index) => {
    const [url = '', ...words] = line.split(/\s+/);
    const name = words.join(' ') || decodeURIComponent(url.split(/[?#]/)[0]!.split('/').pop() || '') || `Medium ${index + 1}`;
    return { id: `m${index + 1}`, kind: VIDEO_FILE.test(url) ? 'video' as const : 'image' as const, url, name: name.slice(0, 200) };
  });
}

/** The brief the form describes, in the API's own shape: the API's schema judges it. */
export function briefOf(values: BriefFormValues): BriefInput {
  const code = [
    ...(values.codePath.trim() || values.codeSource ? [{ path: values.codePath.trim(), source: values.codeSource }] : []),
    ...codeItemsFromDiff(values.diff),
  ];
  const seconds = Number(values.durationSeconds);
  return {
    intent: values.intent.trim(),
    context: values.context.trim() || null,
    media: mediaItems(values.media),
    code,
    format: {
      template: values.template as never, aspect: values.aspect as never,
      durationMs: values.durationSeconds.trim() && Number.isFinite(seconds) ? Math.round(seconds * 1000) : (Number.NaN as never),
      sound: { voiceover: values.sound.includes('voiceover'), music: values.sound.includes('music'), sfx: values.sound.includes('sfx') },
    },
    brand: Object.fromEntries(BRAND_FIELDS.map((name) => [name, values.brand[name].trim() || null])),
  };
}

/** The form field an issue of the API's schema belongs beside ("brief.media.2.url" → media). */
export function fieldOfIssue(path: string): string {
  const parts = path.replace(/^brief\./, '').split('.');
  if (parts[0] === 'media' || parts[0] === 'code') return parts[0];
  if (parts[0] === 'format') return parts[1] === 'durationMs' ? 'durationSeconds' : parts[1] === 'sound' ? 'sound' : parts[1] ?? 'format';
  if (parts[0] === 'brand') return `brand.${parts[1]}`;
  return parts[0] ?? '';
}

/** A media or code item's issue, said with which line or file it is about. */
function wordsOf(path: string, message: string, brief: BriefInput): string {
  const [, list, index, key] = /^brief\.(media|code)\.(\d+)\.?(\w*)/.exec(path) ?? [];
  if (list === 'media') return `Line ${Number(index) + 1}${key ? ` (${key})` : ''}: ${message}`;
  if (list === 'code') return `${brief.code?.[Number(index)]?.path || `File ${Number(index) + 1}`}${key ? ` (${key})` : ''}: ${message}`;
  return message;
}

/** The length's bounds are in milliseconds in the API; the form asks for seconds. */
function secondsWords(issue: { code: string; minimum?: unknown; maximum?: unknown }): string {
  if (issue.code === 'too_small' && typeof issue.minimum === 'number') return `At least ${issue.minimum / 1000} seconds.`;
  if (issue.code === 'too_big' && typeof issue.maximum === 'number') return `At most ${issue.maximum / 1000} seconds.`;
  return 'Give the length in seconds.';
}

/** The create request, or each problem beside its field. */
export function readCreateForm(values: BriefFormValues, workspaceId: string) {
  const brief = briefOf(values);
  const parsed = CreateProductionBody.safeParse({ workspaceId, brief, greenlightMode: 'manual' });
  if (parsed.success) return { ok: true as const, body: parsed.data };
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    const field = fieldOfIssue(path);
    problems[field] ??= field === 'durationSeconds' ? secondsWords(issue) : wordsOf(path, issue.message, brief);
  }
  return { ok: false as const, problems };
}
