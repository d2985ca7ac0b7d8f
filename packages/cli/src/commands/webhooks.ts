import { str, strs, type Command } from '../command.ts';
import { line, printJson, UsageError } from '../io.ts';

const USAGE = 'webhooks list | create URL [--event TYPE…] [--description TEXT] | test ID | deliveries ID [--limit N]';

export const webhooksCommand: Command = {
  name: 'webhooks',
  usage: USAGE,
  summary: 'Your webhook endpoints: list them, add one (its secret is shown once), send a test ping, read deliveries.',
  options: { event: { type: 'string', multiple: true }, description: { type: 'string' }, limit: { type: 'string' } },
  async run(context, values, positionals) {
    const [action, target, ...extra] = positionals;
    const client = await context.client();
    const needs = (what: string) => {
      if (!target || extra.length) throw new UsageError(`Usage: vp webhooks ${what}`);
      return target;
    };
    if (action === 'list') {
      const endpoints = [];
      for await (const endpoint of client.webhooks.iterate()) endpoints.push(endpoint);
      if (context.json) return void printJson(context.stdout, { endpoints });
      if (!endpoints.length) line(context.stdout, 'No webhook endpoints.');
      for (const endpoint of endpoints) {
        line(context.stdout, `${endpoint.id}  ${endpoint.enabled ? 'enabled ' : 'disabled'}  ${endpoint.url}  ${endpoint.events.join(',')}${endpoint.disabledReason ? `  (${endpoint.disabledReason})` : ''}`);
      }
      return;
    }
    if (action === 'create') {
      const events = strs(values, 'event') as NonNullable<Parameters<typeof client.webhooks.create>[0]['events']>;
      const endpoint = await client.webhooks.create({ url: needs('create URL'), description: str(values, 'description'), ...(events.length ? { events } : {}) });
      if (context.json) return void printJson(context.stdout, { endpoint });
      line(context.stdout, `Created ${endpoint.id} for ${endpoint.url}.\nIts signing secret, shown this once: ${endpoint.secret}`);
      return;
    }
    if (action === 'test') {
      const delivery = await client.webhooks.test(needs('test ID'));
      if (context.json) return void printJson(context.stdout, { delivery });
      line(context.stdout, `A signed ping is queued: delivery ${delivery.id}.`);
      return;
    }
    if (action === 'deliveries') {
      const { deliveries } = await client.webhooks.deliveries(needs('deliveries ID'), values.limit ? { limit: Number(values.limit) } : {});
      if (context.json) return void printJson(context.stdout, { deliveries });
      if (!deliveries.length) line(context.stdout, 'No deliveries yet.');
      for (const delivery of deliveries) {
        line(context.stdout, `${delivery.id}  ${delivery.event.padEnd(26)} ${delivery.status.padEnd(9)} attempts ${delivery.attempts}${delivery.lastResponseStatus ? `, last answer ${delivery.lastResponseStatus}` : ''}${delivery.lastError ? `, ${delivery.lastError}` : ''}`);
      }
      return;
    }
    throw new UsageError(`Usage: vp ${USAGE}`);
  },
};
