import { ActivityFailure, ApplicationFailure, CancelledFailure, TimeoutFailure } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { renderFailure as renderFailureOf } from './render-farm.ts';

const renderFailure = (error: ActivityFailure) => renderFailureOf(error, { medium: 'An image', then: 'Please try again.' });

type RetryState = ConstructorParameters<typeof ActivityFailure>[3];

/** A failed render as the workflow sees it: the render farm's failure under Temporal's. */
const failed = (retryState: RetryState, cause: Error) => new ActivityFailure('Activity task failed', 'renderImages', '1', retryState, 'render-worker', cause);
/** What the render farm throws: a readable message, retryable or not, and the try it ended. */
const farm = (type: string, message: string, attempt: number, nonRetryable: boolean) => ApplicationFailure.create({ type, message, nonRetryable, details: [{ attempt }] });

const DECODE = "The image 'Image 1' could not be decoded: the file is damaged or not a picture";
const BUSY = "The image 'Dashboard' (https://media.example/d.png) could not be downloaded: the server answered 503";

describe('why a render failed, in words', () => {
  it('counts the tries there really were: all of them when they ran out', () => {
    expect(renderFailure(failed('MAXIMUM_ATTEMPTS_REACHED', farm('QualityError', 'The video did not pass its quality check', 3, false))))
      .toBe('The video could not be made after 3 tries. Please try again.');
    // A render machine lost on every try: no failure of its own, only Temporal's timeout.
    expect(renderFailure(failed('MAXIMUM_ATTEMPTS_REACHED', new TimeoutFailure('heartbeat', undefined, 'HEARTBEAT'))))
      .toBe('The video could not be made after 3 tries. Please try again.');
  });

  it('counts no tries for a failure that was final on the first, and the real number on a later one', () => {
    expect(renderFailure(failed('NON_RETRYABLE_FAILURE', farm('NoPitch', 'The production has no pitch to make.', 1, true))))
      .toBe('The video could not be made. Please try again.');
    expect(renderFailure(failed('NON_RETRYABLE_FAILURE', farm('Other', 'final', 2, true))))
      .toBe('The video could not be made after 2 tries. Please try again.');
  });

  it('names the medium and what happens next as the caller words them', () => {
    const words = { medium: 'A media file', then: 'Your credits were refunded.' };
    expect(renderFailureOf(failed('MAXIMUM_ATTEMPTS_REACHED', farm('MediaError', BUSY, 3, false)), words)).toBe(`A media file could not be used: ${BUSY} (after 3 tries)`);
    expect(renderFailureOf(failed('NON_RETRYABLE_FAILURE', farm('NoPitch', 'No pitch.', 1, true)), words)).toBe('The video could not be made. Your credits were refunded.');
  });

  it('says the service\'s operators stopped a render cancelled with its workflow', () => {
    expect(renderFailure(failed('CANCEL_REQUESTED', new CancelledFailure('Activity cancelled'))))
      .toBe('The render was cancelled by the service\'s operators.');
  });

  it('gives a medium\'s own reason, with the tries when it was tried again', () => {
    expect(renderFailure(failed('NON_RETRYABLE_FAILURE', farm('MediaError', DECODE, 1, true)))).toBe(`An image could not be used: ${DECODE}`);
    expect(renderFailure(failed('MAXIMUM_ATTEMPTS_REACHED', farm('MediaError', BUSY, 3, false)))).toBe(`An image could not be used: ${BUSY} (after 3 tries)`);
  });
});
