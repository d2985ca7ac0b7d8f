import { createAccount, findAccountByEmail } from '@vp/accounts';
import { failure } from '../cli-error.ts';
import { defineCommand } from '../command.ts';
import { isUniqueViolation } from '../lookups.ts';
import { print } from '../output.ts';
import { email, name } from '../values.ts';

export const createAccountCommand = defineCommand({
  name: 'account create',
  summary: 'Create an account with its personal workspace.',
  options: {
    email: { type: 'string', value: 'E', required: true, description: 'the account e-mail (unique)' },
    name: { type: 'string', value: 'N', description: 'the person\'s name' },
  },
  parse: (values) => ({ email: email(values), name: values.name === undefined ? undefined : name(values) }),
  async run(db, args: { email: string; name?: string | undefined }, output) {
    const exists = () => failure(`an account with e-mail ${args.email} already exists`);
    if (await findAccountByEmail(db, args.email)) throw exists();
    const { account, workspace } = await createAccount(db, { email: args.email, name: args.name ?? null }).catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists() : error;
    });
    print(
      output,
      { accountId: account.id, workspaceId: workspace.id, email: account.email, name: account.name },
      `Created account ${account.email} (${account.id})\nPersonal workspace: ${workspace.name} (${workspace.id})`,
    );
  },
});
