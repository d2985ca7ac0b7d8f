export { createTestDatabase, createEmptyDatabase, type TestDatabase } from './database.ts';
export { testConfig, testSecrets } from './config.ts';
export { seedAccount, test } from './fixtures.ts';
export { failWrites } from './outage.ts';
export { connectTemporal } from './temporal.ts';
export { waitFor } from './wait.ts';
export { ANY_TESTS_PLAINTEXT, findPlaintext, rawRuns, type Finding, type RawRun } from './history-scan.ts';
