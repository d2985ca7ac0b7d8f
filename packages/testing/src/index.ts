export { createTestDatabase, createEmptyDatabase, type TestDatabase } from './database.ts';
export { testConfig } from './config.ts';
export { seedAccount, test } from './fixtures.ts';
