import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isTerminal, type CreateProductionBody } from '@vp/sdk';
import { str, strs, type Command, type Values } from '../command.ts';
import { productionText } from '../format.ts';
import { briefFromGit } from '../git/brief.ts';
import { EXIT, line, printJson, UsageError } from '../io.ts';
import { statusLine } from '../spinner.ts';
import { intervalFrom, watch } from '../watch.ts';

const TEMPLATES = ['changelog', 'launch', 'feature', 'digest', 'custom'] as const;
const ASPECTS = ['16:9', '4:3', '3:2', '21:9', '1:1', '9:16', '3:4', '2:3', '4:5'] as const;
const WRITING = ['queued', 'writing_pitch'];

export const produceCommand: Command = {
  name: 'produce',
  usage: 'produce [REV-RANGE] [--intent TEXT] [--context-file FILE] [--template T] [--aspect A] [--duration 30s] [--media URL…] [--wait] [--greenlight] [--dry-run]',
  summary: 'Turn a git range (default: the last commit) into a brief, print the pitch; --wait watches it to delivery.\n'
    + 'Running the same range again replays the same production.',
  options: {
    intent: { type: 'string' }, 'context-file': { type: 'string' }, template: { type: 'string' }, aspect: { type: 'string' },
    duration: { type: 'string' }, media: { type: 'string', multiple: true }, wait: { type: 'boolean' }, greenlight: { type: 'boolean' },
    'dry-run': { type: 'boolean' }, workspace: { type: 'string' },
  },
  async run(context, values, positionals) {
    if (positionals.length > 1) throw new UsageError(`Usage: vp ${this.usage}`);
    const format = formatOf(values);
    const extraContext = values['context-file'] ? await readFile(resolve(context.cwd, str(values, 'context-file')!), 'utf8') : undefined;
    const { body, leftOut } = await briefFromGit(context.cwd, positionals[0], { intent: str(values, 'intent'), context: extraContext });
    const request: CreateProductionBody = {
      ...body,
      brief: { ...body.brief, format, media: strs(values, 'media').map(mediaItem) },
      greenlightMode: values.greenlight ? 'auto' : 'manual',
      ...(str(values, 'workspace') ? { workspaceId: str(values, 'workspace') } : {}),
    };
    if (values['dry-run']) return void printJson(context.stdout, { request, leftOut });
    const client = await context.client();
    const { production, replayed } = await client.productions.create(request);
    if (!context.json) {
      line(context.stderr, `${replayed ? 'Already made from this range' : 'Created'}: ${production.id}${production.pageUrl ? ` (${production.pageUrl})` : ''}`);
      for (const file of leftOut) line(context.stderr, `  left out ${file.path}: ${file.why}`);
    }
    if (values.wait) return watch(context, client, production.id);
    const status = statusLine(context.stderr);
    const pitched = await client.waitForProduction(production.id, {
      intervalMs: intervalFrom(context.env),
      until: (detail) => !WRITING.includes(detail.production.stage) || isTerminal(detail.production),
      onProgress: (detail) => status.update(`${detail.production.stage}…`),
    }).finally(() => status.stop());
    if (context.json) printJson(context.stdout, pitched);
    else line(context.stdout, productionText(pitched));
    return pitched.production.stage === 'failed' ? EXIT.failed : EXIT.done;
  },
};

function formatOf(values: Values) {
  const template = str(values, 'template');
  const aspect = str(values, 'aspect');
  if (template && !(TEMPLATES as readonly string[]).includes(template)) throw new UsageError(`--template is one of ${TEMPLATES.join(', ')}`);
  if (aspect && !(ASPECTS as readonly string[]).includes(aspect)) throw new UsageError(`--aspect is one of ${ASPECTS.join(', ')}`);
  const duration = str(values, 'duration');
  return {
    ...(template ? { template: template as (typeof TEMPLATES)[number] } : {}),
    ...(aspect ? { aspect: aspect as (typeof ASPECTS)[number] } : {}),
    ...(duration ? { durationMs: durationMs(duration) } : {}),
  };
}

/** `30`, `30s` and `30000ms` are all thirty seconds. */
export function durationMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--duration takes seconds ("30", "30s") or milliseconds ("30000ms"), not "${text}"`);
  const ms = Math.round(Number(match[1]) * (match[2] === 'ms' ? 1 : 1000));
  if (ms < 5000 || ms > 120_000) throw new UsageError('--duration is between 5 and 120 seconds');
  return ms;
}

const VIDEO = /\.(mp4|webm|mov|m4v|mkv)$/i;

function mediaItem(url: string, index: number) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--media takes addresses (https://…), not "${url}"`);
  }
  const name = decodeURIComponent(parsed.pathname.split('/').filter(Boolean).pop() ?? '') || parsed.hostname;
  return { id: `media-${index + 1}`, kind: VIDEO.test(parsed.pathname) ? ('video' as const) : ('image' as const), url, name: name.slice(0, 200) };
}
