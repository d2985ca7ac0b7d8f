import { setMember } from '@vp/accounts';
import type { Role } from '@vp/contracts';
import { failure } from '../cli-error.ts';
import { defineCommand } from '../command.ts';
import { accountByEmail, workspaceById } from '../lookups.ts';
import { print } from '../output.ts';
import { email, id, role } from '../values.ts';

export const addMemberCommand = defineCommand({
  name: 'member add',
  summary: 'Add an existing account to a workspace, or change its role there.',
  options: {
    workspace: { type: 'string', value: 'W', required: true, description: 'the workspace id' },
    email: { type: 'string', value: 'E', required: true, description: 'the member\'s account e-mail' },
    role: { type: 'string', value: 'R', required: true, description: 'owner, editor or viewer' },
  },
  parse: (values) => ({ workspaceId: id(values, 'workspace'), email: email(values), role: role(values) }),
  async run(db, args: { workspaceId: string; email: string; role: Role }, output) {
    const workspace = await workspaceById(db, args.workspaceId);
    const account = await accountByEmail(db, args.email);
    if (workspace.ownerId === account.id && args.role !== 'owner') {
      throw failure(`${account.email} owns ${workspace.name}; the owner's role cannot change`);
    }
    const membership = await setMember(db, { workspaceId: workspace.id, accountId: account.id, role: args.role });
    print(
      output,
      { workspaceId: workspace.id, accountId: account.id, role: membership.role },
      `${account.email} is now ${membership.role} of ${workspace.name} (${workspace.id})`,
    );
  },
});
