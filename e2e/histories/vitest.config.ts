import { defineConfig } from 'vitest/config';

/** `pnpm record-histories`: the history recorder alone, on the test run's embedded servers. */
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['e2e/histories/record.ts'],
    globalSetup: ['./packages/testing/src/global-setup.ts'],
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
