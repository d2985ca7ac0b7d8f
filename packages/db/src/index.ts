export { createDb, sqlPool, type Db } from './client.ts';
export { Prisma } from './generated/client.ts';
export type { Account, Workspace, Membership, ApiKey, CreditEntry, RateLimitWindow, Production, PitchVersion, ProductionEvent } from './generated/client.ts';
export { Role, CreditKind, Stage } from './generated/enums.ts';
export type { WebhookEndpoint, WebhookEvent, WebhookDelivery, LinkEmail } from './generated/client.ts';
export { WebhookDeliveryStatus, LinkEmailStatus } from './generated/enums.ts';
export type { Project, ProjectVersion, Export, Render } from './generated/client.ts';
export { ExportStatus, RenderStatus } from './generated/enums.ts';
export * as keyset from './keyset.ts';
