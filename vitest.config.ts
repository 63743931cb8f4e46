import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './tools/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          // Pure tests: no local stack, no network.
          include: [
            'frontend/src/**/*.test.ts',
            'events/test/**/*.test.ts',
            'functions/test/unit/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'cdk',
          include: ['infra/test/cdk/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          // Handlers, local services and browser tests, all against one local stack of real emulators.
          name: 'platform',
          include: [
            'functions/test/**/*.test.ts',
            'infra/test/local/**/*.test.ts',
            'frontend/e2e/**/*.test.ts',
          ],
          exclude: ['functions/test/unit/**'],
          environment: 'node',
          globalSetup: ['infra/test/support/global-setup.ts'],
          // The files share that stack and its demo users (a sign-out ends all of a user's sessions):
          // they take turns, as they do anyway on a 2-core machine.
          fileParallelism: false,
          setupFiles: ['infra/test/support/worker-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
