import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/src/**/*.test.ts', 'services/**/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'e2e/**/*.test.ts'],
    globalSetup: ['./packages/testing/src/global-setup.ts'],
    // Temporal's native bridge and PostgreSQL pools want real processes, not threads.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The global teardown reads every Temporal history the run made (see global-setup.ts).
    teardownTimeout: 180_000,
  },
});
