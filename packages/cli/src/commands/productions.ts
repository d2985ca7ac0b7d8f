import type { Command } from '../command.ts';
import { str } from '../command.ts';
import { line, printJson, UsageError } from '../io.ts';
import { productionLine, productionText } from '../format.ts';
import { watch } from '../watch.ts';

const id = (positionals: string[], usage: string) => {
  const [value, ...extra] = positionals;
  if (!value || extra.length) throw new UsageError(`Usage: vp ${usage}`);
  return value;
};

const list: Command = {
  name: 'list',
  usage: 'list [--stage STAGE[,STAGE]] [--limit N] [--all]',
  summary: 'Your productions, newest first (--all follows every page).',
  options: { stage: { type: 'string' }, limit: { type: 'string' }, all: { type: 'boolean' }, workspace: { type: 'string' } },
  async run(context, values) {
    const client = await context.client();
    const query = { stage: str(values, 'stage'), workspaceId: str(values, 'workspace'), limit: values.limit ? Number(values.limit) : undefined };
    const productions = [];
    if (values.all) for await (const production of client.productions.iterate(query)) productions.push(production);
    else productions.push(...(await client.productions.list(query)).productions);
    if (context.json) return void printJson(context.stdout, { productions });
    if (!productions.length) line(context.stdout, 'No productions.');
    for (const production of productions) line(context.stdout, productionLine(production));
  },
};

const show: Command = {
  name: 'show',
  usage: 'show ID',
  summary: 'A production: its stage, pitch, delivery and timeline.',
  async run(context, _values, positionals) {
    const detail = await (await context.client()).productions.get(id(positionals, this.usage));
    if (context.json) return void printJson(context.stdout, detail);
    line(context.stdout, productionText(detail));
    line(context.stdout, '\nTimeline:');
    for (const event of detail.events) line(context.stdout, `  ${event.createdAt.slice(0, 19).replace('T', ' ')}  ${event.kind.padEnd(10)} ${event.actorName ?? event.actor}`);
  },
};

const greenlight: Command = {
  name: 'greenlight',
  usage: 'greenlight ID [--pitch-version N] [--wait]',
  summary: 'Greenlight the pitch: credits are charged once and the video is made (--wait: until delivered).',
  options: { 'pitch-version': { type: 'string' }, wait: { type: 'boolean' } },
  async run(context, values, positionals) {
    const client = await context.client();
    const pitchVersion = values['pitch-version'] ? Number(values['pitch-version']) : undefined;
    if (pitchVersion !== undefined && !Number.isInteger(pitchVersion)) throw new UsageError('--pitch-version takes a whole number');
    const production = await client.productions.greenlight(id(positionals, this.usage), pitchVersion ? { pitchVersion } : {});
    if (values.wait) return watch(context, client, production.id);
    if (context.json) return void printJson(context.stdout, { production });
    line(context.stdout, `Greenlit ${production.id}: ${production.creditsCharged} credits charged; the video is being made.`);
  },
};

/** decline, cancel and comment: one call on a production, printing where it stands after. */
function action(name: 'decline' | 'cancel', summary: string): Command {
  return {
    name, summary,
    usage: `${name} ID [--reason TEXT]`,
    options: { reason: { type: 'string' } },
    async run(context, values, positionals) {
      const production = await (await context.client()).productions[name](id(positionals, this.usage), str(values, 'reason'));
      if (context.json) return void printJson(context.stdout, { production });
      line(context.stdout, `${production.id} is ${production.stage}.`);
    },
  };
}

const comment: Command = {
  name: 'comment',
  usage: 'comment ID "TEXT"',
  summary: 'Comment on the pitch; the next version is written.',
  async run(context, _values, positionals) {
    const [productionId, text, ...extra] = positionals;
    if (!productionId || !text || extra.length) throw new UsageError(`Usage: vp ${this.usage}`);
    const production = await (await context.client()).productions.comment(productionId, text);
    if (context.json) return void printJson(context.stdout, { production });
    line(context.stdout, `${production.id} is ${production.stage}: the next pitch is being written.`);
  },
};

const usage: Command = {
  name: 'usage',
  usage: 'usage [--workspace ID]',
  summary: "This month's pitches, credits and productions.",
  options: { workspace: { type: 'string' } },
  async run(context, values) {
    const result = await (await context.client()).productions.usage({ workspaceId: str(values, 'workspace') });
    if (context.json) return void printJson(context.stdout, { usage: result });
    line(context.stdout, `${result.month}: pitches ${result.pitches.used}/${result.pitches.cap}; credits ${result.credits.balance} left, ${result.credits.charged} charged, ${result.credits.refunded} refunded; productions ${result.productions.created} created, ${result.productions.delivered} delivered.`);
  },
};

export const productionCommands: Command[] = [
  list, show, greenlight, comment,
  action('decline', 'Decline the pitch.'),
  action('cancel', 'Cancel the production (a charge is refunded in full before delivery).'),
  usage,
];
