import { z } from 'zod';
import { Format, Origin } from './brief.ts';
import { Pitch } from './pitch.ts';
import { CommentText, Delivery, Stage } from './production.ts';
import { StorableText } from './text.ts';

/** A greenlight link lives this long from minting. */
export const LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const LINK_ACTIONS = ['greenlight', 'comment', 'decline'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

export const LINK_STATES = ['open', 'stale', 'expired'] as const;
export type LinkState = (typeof LINK_STATES)[number];

export const LinkChannel = z.enum(['email', 'webhook']);
export type LinkChannel = z.infer<typeof LinkChannel>;

export const GreenlightLinkView = z
  .object({
    productionId: z.uuid(),
    workspaceName: z.string(),
    stage: Stage,
    state: z.enum(LINK_STATES).meta({ description: '`open`: can act; `stale`: the pitch moved on or was answered (acting is 409 `stale`); `expired`: past 7 days (acting is 410 `expired`).' }),
    pitchVersion: z.int().min(1).meta({ description: 'The version the link was minted for.' }),
    currentPitchVersion: z.int().min(1),
    intent: z.string(),
    origin: Origin.nullable(),
    format: Format,
    pitch: Pitch.nullable(),
    pitchMarkdown: z.string().nullable(),
    delivery: Delivery.nullable(),
    pageUrl: z.url(),
    revisionsLeft: z.int().min(0),
    expiresAt: z.iso.datetime(),
    channel: LinkChannel.optional(),
  })
  .meta({ id: 'GreenlightLinkView' });
export type GreenlightLinkView = z.infer<typeof GreenlightLinkView>;

export const LinkCommentBody = z
  .object({ comment: CommentText })
  .meta({ id: 'LinkCommentBody' });
export const LinkDeclineBody = z
  .object({ reason: StorableText.max(1000).optional() })
  .meta({ id: 'LinkDeclineBody' });
