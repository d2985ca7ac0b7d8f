import { ApplicationFailure } from '@temporalio/common';
import { DomainError } from '@vp/contracts';
import { isDataError } from '@vp/db';
import type { Refusal, Refused, StepOutcome } from '@vp/workflows/definitions';

const REFUSED_CODES: ReadonlySet<string> = new Set<Refusal>(['credits', 'cap', 'stage', 'revisions', 'invalid']);

/**
 * The step of an Update: a rule of the domain that refuses it (credits, the pitch cap) or data
 * the database refuses (text it cannot store) comes back as a refusal, which the workflow passes
 * to the caller; nothing was written, and the production takes the next valid action.
 */
export async function refusable(step: () => Promise<StepOutcome>): Promise<StepOutcome | Refused> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof DomainError && REFUSED_CODES.has(error.code)) return { refused: error.code as Refusal, message: error.message };
    if (isDataError(error)) return { refused: 'invalid', message: refusedData(error) };
    throw error;
  }
}

/**
 * Any other step: data the database refuses fails it for good (its retries would meet the same
 * refusal forever), in words.
 */
export async function finalOnDataError<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!isDataError(error)) throw error;
    throw ApplicationFailure.create({ type: 'DataRefused', message: refusedData(error), nonRetryable: true });
  }
}

/** In words, without the database's own message (which may quote the data). */
const refusedData = (_error: unknown) =>
  'The database could not store the data of this action (text with a character it cannot keep, such as NUL or a lone UTF-16 surrogate, or a value out of range); nothing was changed.';
