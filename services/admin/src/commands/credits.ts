import { balance, grant } from '@vp/ledger';
import { defineCommand } from '../command.ts';
import { accountByEmail } from '../lookups.ts';
import { print } from '../output.ts';
import { ACCOUNT_EMAIL, email, integer, optionalText } from '../values.ts';

export const grantCreditsCommand = defineCommand({
  name: 'credits grant',
  summary: 'Grant credits to an account (credits pay for the videos of the workspaces it owns).',
  options: {
    email: ACCOUNT_EMAIL,
    amount: { type: 'string', value: 'N', required: true, description: 'credits to add, a positive whole number' },
    note: { type: 'string', value: 'TEXT', description: 'why, kept in the ledger' },
  },
  parse: (values) => ({ email: email(values), amount: integer(values, 'amount', { min: 1 }), note: optionalText(values, 'note') }),
  async run(db, args: { email: string; amount: number; note?: string | undefined }, output) {
    const account = await accountByEmail(db, args.email);
    await grant(db, account.id, args.amount, args.note || null);
    const now = await balance(db, account.id);
    print(
      output,
      { accountId: account.id, granted: args.amount, balance: now },
      `Granted ${args.amount} credits to ${account.email}; balance ${now}`,
    );
  },
});

export const balanceCommand = defineCommand({
  name: 'credits balance',
  summary: 'Show an account\'s credit balance.',
  options: {
    email: ACCOUNT_EMAIL,
  },
  parse: (values) => ({ email: email(values) }),
  async run(db, args: { email: string }, output) {
    const account = await accountByEmail(db, args.email);
    const now = await balance(db, account.id);
    print(output, { accountId: account.id, balance: now }, `${account.email}: ${now} credits`);
  },
});
