import { z } from 'zod';
import { Brief, Origin } from './brief.ts';
import { Pitch } from './pitch.ts';
import { StorableText } from './text.ts';

export const STAGES = [
  'queued', 'writing_pitch', 'pitch_ready', 'greenlit', 'making', 'exporting',
  'delivered', 'skipped', 'declined', 'cancelled', 'failed',
] as const;
export const Stage = z.enum(STAGES).meta({ id: 'Stage' });
export type Stage = z.infer<typeof Stage>;

const TERMINAL: ReadonlySet<Stage> = new Set(['delivered', 'skipped', 'declined', 'cancelled', 'failed']);
export function isTerminal(stage: Stage): boolean {
  return TERMINAL.has(stage);
}

export const GreenlightMode = z.enum(['manual', 'auto']);
export type GreenlightMode = z.infer<typeof GreenlightMode>;

export const Delivery = z
  .object({
    shareUrl: z.url(),
    projectId: z.uuid(),
    editUrl: z.url(),
    exportId: z.uuid(),
    deliveredAt: z.iso.datetime(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const Greenlight = z.object({
  mode: GreenlightMode,
  actor: z.string().min(1),
  actorName: z.string().nullable(),
  at: z.iso.datetime(),
  pitchVersion: z.int().min(1),
});

export const Production = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    stage: Stage,
    source: z.object({
      kind: z.enum(['app', 'api', 'mcp']),
      externalId: z.string().max(200).nullable(),
      origin: Origin.nullable(),
    }),
    brief: Brief,
    pitch: Pitch.nullable(),
    greenlight: Greenlight.nullable(),
    greenlightMode: GreenlightMode,
    delivery: Delivery.nullable(),
    projectId: z.uuid().nullable(),
    creditsCharged: z.int().min(0),
    revisionsLeft: z.int().min(0),
    error: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    terminal: z.boolean().optional(),
    pageUrl: z.url().optional(),
  })
  .meta({ id: 'Production' });
export type Production = z.infer<typeof Production>;

export const EVENT_KINDS = [
  'created', 'stage', 'pitch', 'comment', 'greenlit', 'declined', 'cancelled', 'delivered', 'failed', 'note',
] as const;
export const ProductionEvent = z
  .object({
    id: z.uuid(),
    productionId: z.uuid(),
    kind: z.enum(EVENT_KINDS),
    actor: z.string(),
    actorName: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ProductionEvent' });
export type ProductionEvent = z.infer<typeof ProductionEvent>;

export const PHASES = ['preparing', 'planning', 'building', 'reviewing', 'polishing', 'exporting'] as const;
export const Phase = z.enum(PHASES);
export type Phase = z.infer<typeof Phase>;

export const QueueStatus = z
  .object({
    phase: Phase.nullable().default(null),
    startedAt: z.iso.datetime().nullable().default(null),
    retrying: z.boolean().default(false),
    lastProgress: z.string().nullable().default(null),
  })
  .meta({ id: 'QueueStatus' });
export type QueueStatus = z.infer<typeof QueueStatus>;

export const CreateProductionBody = z
  .object({
    workspaceId: z.uuid().optional(),
    brief: Brief,
    greenlightMode: GreenlightMode.default('manual'),
    externalId: StorableText.min(1).max(200).optional(),
    origin: Origin.optional(),
  })
  .meta({ id: 'CreateProductionBody' });
export type CreateProductionBody = z.infer<typeof CreateProductionBody>;

/** Timeline actors: user:<accountId>, key:<keyId>, email:<address>, webhook:<endpointId>, auto, system. */
export type Actor = { actor: string; actorName: string | null };

/** Comment rounds per production (`revisionsLeft` starts here). */
export const REVISIONS = 3;

export const GreenlightBody = z
  .object({ pitchVersion: z.int().min(1).optional() })
  .meta({ id: 'GreenlightBody' });
/** What the next pitch is written from: blank space alone asks for nothing. */
export const CommentText = StorableText.trim().min(1, 'Write what should change.').max(4000);
export const CommentBody = z
  .object({ comment: CommentText, pitchVersion: z.int().min(1).optional() })
  .meta({ id: 'CommentBody' });
export const DeclineBody = z
  .object({ reason: StorableText.max(1000).optional() })
  .meta({ id: 'DeclineBody' });
export const CancelBody = z
  .object({ reason: StorableText.max(1000).optional() })
  .meta({ id: 'CancelBody' });

/** `stage` filter: one stage name or a comma-separated list, exact match. */
export const StageFilter = StorableText
  .transform((value, ctx) => {
    const names = value.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(STAGES as readonly string[]).includes(n));
    if (!names.length || unknown.length) {
      ctx.addIssue({ code: 'custom', message: `Unknown stage ${unknown.join(', ') || '(empty)'}; expected one of ${STAGES.join(', ')}` });
      return z.NEVER;
    }
    return names as Stage[];
  });

export const Usage = z
  .object({
    month: z.string().meta({ example: '2026-11' }),
    pitches: z.object({ used: z.int(), cap: z.int() }),
    credits: z.object({ balance: z.int(), charged: z.int(), refunded: z.int() }),
    productions: z.object({ created: z.int(), delivered: z.int() }),
  })
  .meta({ id: 'Usage' });
