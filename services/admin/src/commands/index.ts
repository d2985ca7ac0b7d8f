import { createAccountCommand } from './account.ts';
import { bootstrapCommand } from './bootstrap.ts';
import { balanceCommand, grantCreditsCommand } from './credits.ts';
import { createKeyCommand, listKeysCommand, revokeKeyCommand } from './key.ts';
import { addMemberCommand } from './member.ts';
import { resealCommand } from './webhooks.ts';
import { createWorkspaceCommand, setCapCommand } from './workspace.ts';

/** Every `admin` command, in the order help lists them. */
export const COMMANDS = [
  bootstrapCommand,
  createAccountCommand,
  createWorkspaceCommand,
  setCapCommand,
  addMemberCommand,
  createKeyCommand,
  listKeysCommand,
  revokeKeyCommand,
  grantCreditsCommand,
  balanceCommand,
  resealCommand,
];
