import type { PitchWriter } from '@vp/pitch';
import type { ProductionActivities } from '@vp/workflows/definitions';
import type { EventPublisher } from '../publish.ts';
import { answerSteps } from './answer-steps.ts';
import { pitchEmails, type PitchEmailDeps } from './pitch-emails.ts';
import { pitchSteps } from './pitch-steps.ts';
import { finalOnDataError } from './refusals.ts';
import { stepsOf } from './steps.ts';
import { videoSteps } from './video-steps.ts';

/**
 * Without `events`, stage changes publish nothing (tests of the production workflow alone);
 * without `mailer`, no pitch e-mail is sent; without `noticeMailer`, no notice.
 */
export type ProductionActivityDeps = Omit<PitchEmailDeps, 'mailer'> & { writer: PitchWriter; events?: EventPublisher; mailer?: PitchEmailDeps['mailer'] };

/**
 * Activities of the production workflow: its steps (each idempotent through its step key) and
 * its pitch e-mails. They report what happened; the workflow decides what happens next.
 */
export function createProductionActivities(deps: ProductionActivityDeps): ProductionActivities {
  const steps = stepsOf(deps.db, deps.writer, deps.events);
  const activities: ProductionActivities = {
    ...pitchSteps(steps),
    ...answerSteps(steps),
    ...videoSteps(steps, deps.appUrl),
    ...pitchEmails({ ...deps, mailer: deps.mailer ?? null }),
  };
  // Data the database refuses never holds a step in its retries.
  return Object.fromEntries(Object.entries(activities).map(([name, activity]) =>
    [name, (input: never) => finalOnDataError(() => (activity as (input: never) => Promise<unknown>)(input))])) as unknown as ProductionActivities;
}
