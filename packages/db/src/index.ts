export { createDb, type Db } from './client.ts';
export { Prisma } from './generated/client.ts';
export type * from './generated/models.ts';
export { Role, CreditKind } from './generated/enums.ts';
