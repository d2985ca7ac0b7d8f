import { creditsFor, DomainError } from '@vp/contracts';
import { lockFor, type Tx } from '@vp/db';
import { balance } from '@vp/ledger';
import { pitchesUsed, secondsToNextMonth } from './usage.ts';

export type Workspace = { id: string; ownerId: string; pitchCap: number };

/**
 * The rule for writing a pitch (create, and every comment round): the workspace owner's credits
 * cover a video of `durationMs` (the pitch is free, but only written when the video could be
 * paid for), and the workspace's pitches this month are under its cap. Checked under the
 * workspace's pitch lock, held until the caller's transaction ends, so that pitches written
 * at the same moment cannot overrun the cap.
 */
export async function requirePitchAllowance(tx: Tx, workspace: Workspace, durationMs: number, now = new Date()): Promise<void> {
  await lockFor(tx, `pitch-cap:${workspace.id}`);
  const needed = creditsFor(durationMs);
  const available = await balance(tx, workspace.ownerId);
  if (available < needed) throw new DomainError('credits', `This video needs ${needed} credits; the workspace owner has ${available}.`);
  if ((await pitchesUsed(tx, workspace.id, now)) >= workspace.pitchCap) {
    throw new DomainError('cap', `This workspace has used its ${workspace.pitchCap} pitches for this month.`, { retryAfterSeconds: secondsToNextMonth(now) });
  }
}
