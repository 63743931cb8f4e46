import { describe, expect, it } from 'vitest';
import { config } from '@argentum/functions/config';
import { createOwnOrganization, createUser, stack } from '../../../functions/test/support/api';
import { seriesItems } from '../../../functions/test/support/telemetry';
import { dynamoDevices } from '@argentum/functions/stores/devices';
import { runSmoke, type SmokeStep } from '../../ops/smoke';

/**
 * `npm run smoke` as a deployment runs it, here against the local test stack: the same steps through
 * the API, the browser channel (a `web-<uuid>` client through the authorizer) and a device on the broker.
 */
describe('the smoke test of a deployment, against the local platform', () => {
  it('passes every step and leaves nothing of what it made', async () => {
    const user = await createUser(2);
    const orgId = await createOwnOrganization(user.userId, 2, 'Smoke Org');
    const steps: SmokeStep[] = [];
    await runSmoke(
      {
        kind: 'local',
        siteUrl: stack.url,
        email: user.email,
        password: user.password,
        orgId,
        platformTable: config.platformTable,
        telemetryTable: config.telemetryTable,
        telemetryRuleName: stack.telemetryRuleName,
        mqttUrl: `mqtt://127.0.0.1:${stack.mqttPort}`,
        deviceSecret: stack.deviceSecret,
      },
      { timeoutMs: 20_000, onStep: (step) => steps.push(step) },
    );
    expect(steps.filter((s) => !s.ok)).toEqual([]);
    expect(steps.map((s) => s.step)).toEqual([
      'sign in',
      'open the browser channel',
      'add a building and a floor',
      'see the floor in the sidebar, answered gzip',
      'provision a test device',
      'watch the live floor topic',
      'publish a reading through Basic Ingest',
      'see the reading in a data query',
      'see the reading on the live floor topic',
      'send a command',
      'receive the command as the device',
      'confirm it and see it confirmed',
      'remove what it made',
    ]);
    expect(steps[1]?.detail).toMatch(/^connected as web-[0-9a-f-]{36}$/);

    const devId = steps.at(-1)?.detail ?? '';
    expect(devId).toMatch(/^smoke-/);
    expect(await dynamoDevices.get(devId)).toBeUndefined();
    expect(await seriesItems(devId, 'raw')).toEqual([]);
  });
});
