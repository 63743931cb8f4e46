import type { ThrottlePolicy } from '../../src/domain/auth/ports';

/** What the test global setup (infra/test/support/global-setup.ts) provides to every test worker. */
export interface ProvidedStack {
  url: string;
  env: Record<string, string>;
  mailDir: string;
  mqttPort: number;
  mqttWsPort: number;
  /** The stack's device secret: tests issue device credentials with it (infra/local/device-credentials.ts). */
  deviceSecret: string;
  /** The stack's data folder (its device-access.json, for the local provisioning path). */
  dataDir: string;
  demoPassword: string;
  /** The telemetry rule's name: devices publish through Basic Ingest to `$aws/rules/{name}/...`. */
  telemetryRuleName: string;
  /**
   * The end of the demo devices' seeded day of readings (ms since the epoch): the last reading, at
   * most 15 minutes before the stack started, and perhaps on the day before the one a test runs in.
   */
  historyEnd: number;
  /** The sign-in and reset-mail limits the local API runs with in this test run. */
  throttlePolicy: ThrottlePolicy;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: ProvidedStack;
  }
}
