import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../local/stack';
import { DEFAULT_DEMO_PASSWORD } from '../../local/demo-data';
import { seededHistory } from '../../local/seed';
import { describeRefusal } from '../../local/function-grants';
import type { ThrottlePolicy } from '@argentum/functions/domain/auth/ports';
import '../../../functions/test/support/provided';

/**
 * The limits of the test run: production's counts per account, with locks of a second or two so the
 * tests can wait them out. Every test calls from 127.0.0.1, so the per-address limits are high enough
 * that the whole run cannot reach them (the per-address limiter is tested on its own, with its own
 * policy, in functions/test/throttle.test.ts).
 */
const throttlePolicy: ThrottlePolicy = {
  signIn: {
    account: { maxAttempts: 5, windowSeconds: 60, lockSeconds: 1, maxLockSeconds: 4 },
    address: { maxAttempts: 1000, windowSeconds: 60, lockSeconds: 1, maxLockSeconds: 4 },
  },
  resetMail: {
    account: { maxAttempts: 3, windowSeconds: 60, lockSeconds: 1, maxLockSeconds: 4 },
    address: { maxAttempts: 1000, windowSeconds: 60, lockSeconds: 1, maxLockSeconds: 4 },
  },
};

/** One local stack (every emulator, on free ports, in a throw-away folder) for the whole test run. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'argentum-test-'));
  process.env.LOG_LEVEL ??= 'warn';
  // The platform's metrics (embedded metric format on stdout) stay out of test output, as info logs do.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const stack = await startLocalStack({
    dataDir,
    ports: { app: 0, dynamodb: 0, s3: 0, cognito: 0, mqtt: 0, mqttWs: 0, iotData: 0, ses: 0, sqs: 0 },
    seed: true,
    demoPassword: DEFAULT_DEMO_PASSWORD,
    historyDays: 1,
    simulator: false,
    ephemeral: true,
    throttlePolicy,
    // Tests run the presence sweep themselves, at the time they choose (lambda/presence-sweep.ts).
    presenceSweepMs: 0,
    // ... and the vendor poller (lambda/vendor-poller.ts).
    vendorPollMs: 0,
  });
  const history = await seededHistory();
  if (!history) throw new Error('the test stack holds no seeded history');
  project.provide('stack', {
    url: `http://127.0.0.1:${stack.ports.app}`,
    env: {
      ...stack.env,
      LOG_LEVEL: process.env.LOG_LEVEL,
      POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED,
    },
    mailDir: stack.mailDir,
    mqttPort: stack.ports.mqtt,
    mqttWsPort: stack.ports.mqttWs,
    deviceSecret: stack.deviceSecret,
    dataDir,
    demoPassword: DEFAULT_DEMO_PASSWORD,
    telemetryRuleName: stack.telemetryRuleName,
    historyEnd: history.end,
    throttlePolicy,
  });
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
    // A function's request its role would not allow failed as on AWS; a handler that swallowed it
    // still fails the run here.
    if (stack.accessRefusals.length > 0) {
      const lines = stack.accessRefusals.map(describeRefusal);
      // Vitest reports an error thrown here but keeps its exit code: the run fails by this one.
      process.exitCode = 1;
      throw new Error(`Requests AWS would refuse the functions that made them:\n${lines.join('\n')}`);
    }
  };
}
