import { z } from 'zod';

/** `limit` on every list route: default 20, 1 to 100. */
export const Limit = z.coerce.number().int().min(1).max(100).default(20);
