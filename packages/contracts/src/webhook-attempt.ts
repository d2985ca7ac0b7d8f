/**
 * Room for the database writes around a receiver's time to answer: an attempt takes at most
 * both (the delivery workflow's timeout for it), and a claimed attempt whose outcome was never
 * recorded is made again after both. A module of its own, without zod, for workflow code.
 */
export const ATTEMPT_MARGIN_MS = 15_000;
