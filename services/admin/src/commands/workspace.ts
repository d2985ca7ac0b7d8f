import { createWorkspace } from '@vp/accounts';
import { defineCommand } from '../command.ts';
import { accountByEmail, workspaceById } from '../lookups.ts';
import { print } from '../output.ts';
import { email, id, integer, name } from '../values.ts';

export const createWorkspaceCommand = defineCommand({
  name: 'workspace create',
  summary: 'Create a shared workspace owned by an account (its credits pay for the workspace\'s videos).',
  options: {
    owner: { type: 'string', value: 'E', required: true, description: 'the owner\'s account e-mail' },
    name: { type: 'string', value: 'N', required: true, description: 'the workspace name, 1 to 100 characters' },
  },
  parse: (values) => ({ owner: email(values, 'owner'), name: name(values) }),
  async run(db, args: { owner: string; name: string }, output) {
    const owner = await accountByEmail(db, args.owner);
    const workspace = await createWorkspace(db, { ownerId: owner.id, name: args.name });
    print(
      output,
      { workspaceId: workspace.id, name: workspace.name, ownerId: owner.id, pitchCap: workspace.pitchCap },
      `Created workspace ${workspace.name} (${workspace.id}) owned by ${owner.email}`,
    );
  },
});

export const setCapCommand = defineCommand({
  name: 'workspace set-cap',
  summary: 'Set a workspace\'s monthly pitch cap (pitch versions written per calendar month, UTC).',
  options: {
    workspace: { type: 'string', value: 'W', required: true, description: 'the workspace id' },
    cap: { type: 'string', value: 'N', required: true, description: 'pitch versions per month; 0 stops new pitches' },
  },
  parse: (values) => ({ workspaceId: id(values, 'workspace'), cap: integer(values, 'cap', { min: 0 }) }),
  async run(db, args: { workspaceId: string; cap: number }, output) {
    const before = await workspaceById(db, args.workspaceId);
    const workspace = await db.workspace.update({ where: { id: before.id }, data: { pitchCap: args.cap } });
    print(
      output,
      { workspaceId: workspace.id, pitchCap: workspace.pitchCap },
      `Pitch cap of ${workspace.name} (${workspace.id}): ${before.pitchCap} -> ${workspace.pitchCap} per month`,
    );
  },
});
