import { resealSecrets, secretBoxFor, webhookSettings } from '@vp/webhooks';
import { failure } from '../cli-error.ts';
import { defineCommand } from '../command.ts';
import { print } from '../output.ts';

export const resealCommand = defineCommand({
  name: 'webhooks reseal',
  summary: 'After changing WEBHOOK_SECRET_KEY (the old key as WEBHOOK_SECRET_KEY_PREVIOUS): seal every endpoint\'s secrets with the new key.',
  options: {},
  parse: () => ({}),
  async run(db, _args: object, output, config) {
    // The keys the services run with.
    const { resealed, unreadable, unsettled } = await resealSecrets(db, secretBoxFor(webhookSettings(config())));
    if (unreadable.length) {
      throw failure(`${unreadable.length} endpoint(s) have secrets neither key opens, left as they are: ${unreadable.join(', ')}. Resealed ${resealed}.`);
    }
    if (unsettled.length) {
      throw failure(`${unsettled.length} endpoint(s) kept changing while they were resealed (secrets rolled): ${unsettled.join(', ')}. Run this again. Resealed ${resealed}.`);
    }
    print(output, { resealed }, `Resealed ${resealed} endpoint(s): WEBHOOK_SECRET_KEY_PREVIOUS can be dropped.`);
  },
});
