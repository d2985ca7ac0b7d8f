export { createDb, type Db } from './client.ts';
export { Prisma } from './generated/client.ts';
export type { Account, Workspace, Membership, ApiKey, CreditEntry, RateLimitWindow, Production, PitchVersion, ProductionEvent } from './generated/client.ts';
export { Role, CreditKind, Stage } from './generated/enums.ts';
