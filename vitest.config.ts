import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './tools/summary-reporter.ts'],
    // Platform files create their own users, so files run side by side. The work is mostly waiting on
    // the emulators and the browser: more workers than cores pays off (measured on 2 cores). One
    // setting for every project (vitest runs projects with different limits one after the other).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    projects: [
      {
        test: {
          name: 'unit',
          // Pure tests: no local stack, no network.
          include: [
            'frontend/src/**/*.test.ts',
            'contracts/test/**/*.test.ts',
            'functions/test/unit/**/*.test.ts',
            'infra/test/unit/**/*.test.ts',
            'tools/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'cdk',
          include: ['infra/test/cdk/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['infra/test/support/cdk-global-setup.ts'],
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
          exclude: [...configDefaults.exclude, 'functions/test/unit/**'],
          environment: 'node',
          globalSetup: ['infra/test/support/global-setup.ts'],
          setupFiles: ['infra/test/support/worker-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Polls wait on the emulators and the browser: on a loaded machine a second is not enough.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
