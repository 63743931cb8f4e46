import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectAsync } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { type FloorDevicesAnswer } from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import { repoRoot } from '../../local/config';
import { stack } from '../../../functions/test/support/api';
import { dc, newPlace, userWith } from '../../../functions/test/platform/devices-fixtures';
import { freshDevId, seriesItems, waitUntil } from '../../../functions/test/support/telemetry';

/** `npm run provision-device -- --local ...` against the test run's local stack, as an operator runs it. */
const run = promisify(execFile);
const outDirs: string[] = [];
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

async function provision(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const command = [
    cli,
    path.join(repoRoot, 'infra', 'ops', 'provision-device.ts'),
    '--local',
    '--data-dir',
    stack.dataDir,
  ];
  try {
    const { stdout, stderr } = await run(process.execPath, [...command, ...args], { cwd: repoRoot });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

interface DeviceFile {
  url: string;
  clientId: string;
  username: string;
  password: string;
  topics: { telemetry: string; commands: string; confirmations: string[] };
}

describe('provision-device --local', () => {
  it('registers the device in its organization and issues a credential the broker admits; a second run changes nothing', async () => {
    const place = await newPlace('Provisioned');
    const devId = freshDevId();
    const out = mkdtempSync(path.join(tmpdir(), 'argentum-device-'));
    outDirs.push(out);
    const args = [
      '--org',
      place.orgId,
      '--dev',
      devId,
      '--type',
      '5',
      '--name',
      'IEQ_Provisioned',
      '--floor',
      place.floorId,
      '--out',
      out,
    ];

    const first = await provision(args);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(
      `Device ${devId}: registered in organization ${place.orgId} (local stack).`,
    );
    expect(first.stdout).toContain(`Telemetry:   ${topics.sensorData(place.orgId, devId)}`);
    expect(first.stdout).toContain(`Commands:    ${topics.control(place.orgId, devId)} (subscribe)`);

    // Visible through the platform's own device calls: among the organization's unplaced devices.
    const member = await userWith({ [place.orgId]: 0 });
    const listed = await member.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: place.floorId,
      orgID: place.orgId,
      onFloor: false,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.devices).toEqual([
      expect.objectContaining({
        devID: devId,
        devName: 'IEQ_Provisioned',
        devType: 5,
        orgID: place.orgId,
        onFloor: false,
      }),
    ]);

    const file = path.join(out, 'device.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const credential = JSON.parse(readFileSync(file, 'utf8')) as DeviceFile;
    expect(credential).toMatchObject({
      clientId: devId,
      username: devId,
      url: `mqtt://127.0.0.1:${stack.mqttPort}`,
    });

    // The credential connects as the device; its telemetry reaches ingest.
    const client = await connectAsync(credential.url, {
      clientId: credential.clientId,
      username: credential.username,
      password: credential.password,
      reconnectPeriod: 0,
    });
    try {
      const time = Date.now() - 60_000;
      await client.publishAsync(
        credential.topics.telemetry,
        JSON.stringify({ devID: devId, devType: 5, time, values: { temp: 22.5 } }),
        { qos: 1 },
      );
      const [stored] = await waitUntil(async () => {
        const items = await seriesItems(devId, 'raw');
        return items.length === 1 ? items : undefined;
      });
      expect(stored).toMatchObject({ t: time, v: { temp: 22.5 } });
    } finally {
      await client.endAsync();
    }

    const second = await provision(args);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toContain(
      `Device ${devId}: already-registered in organization ${place.orgId} (local stack).`,
    );
    expect((JSON.parse(readFileSync(file, 'utf8')) as DeviceFile).password).toBe(credential.password);
    const again = await member.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: place.floorId,
      orgID: place.orgId,
      onFloor: false,
    });
    expect(again.body.devices.map((d) => d.devID)).toEqual([devId]);
  }, 120_000);

  it('refuses an unknown organization, an illegal id, and a device of another organization', async () => {
    const place = await newPlace('Provisioned');
    const other = await newPlace('Other');
    const out = mkdtempSync(path.join(tmpdir(), 'argentum-device-'));
    outDirs.push(out);
    const base = (org: string, dev: string) => [
      '--org',
      org,
      '--dev',
      dev,
      '--type',
      '4',
      '--name',
      'Motion1',
      '--out',
      out,
    ];

    expect(await provision(base('no-such-org', freshDevId()))).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Organization no-such-org does not exist.\n',
    });
    // ... nor the form of a browser's client id, which a device's connection must never share.
    for (const dev of ['success', 'a/b', 'a+b', `web-${randomUUID()}`, 'WEB-1']) {
      const refused = await provision(base(place.orgId, dev));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `Device id "${dev}" is not allowed: letters, digits, ':', '_' and '-' only (at most 128), not "success" or "fail", and not starting with "web-" (browsers' client ids).\n`,
      );
    }
    const devId = freshDevId();
    expect((await provision(base(other.orgId, devId))).code).toBe(0);
    expect(await provision(base(place.orgId, devId))).toEqual({
      code: 2,
      stdout: '',
      stderr: `Device ${devId} is registered in another organization.\n`,
    });
  }, 120_000);

  it('records the gateway a device reports through, and moves it when run again with another', async () => {
    const place = await newPlace('Provisioned');
    const gateways = [freshDevId(), freshDevId()];
    const out = mkdtempSync(path.join(tmpdir(), 'argentum-device-'));
    outDirs.push(out);
    const args = (dev: string, type: string, more: string[] = []) => [
      '--org',
      place.orgId,
      '--dev',
      dev,
      '--type',
      type,
      '--name',
      `Device-${type}`,
      '--out',
      out,
      ...more,
    ];
    for (const gateway of gateways) expect((await provision(args(gateway, '0'))).code).toBe(0);
    const devId = freshDevId();

    const first = await provision(args(devId, '5', ['--gateway', gateways[0] ?? '']));
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(
      `Device ${devId}: registered in organization ${place.orgId} (local stack); reports through gateway ${gateways[0]}.`,
    );
    const moved = await provision(args(devId, '5', ['--gateway', gateways[1] ?? '']));
    expect(moved.stdout).toContain(
      `Device ${devId}: gateway-changed in organization ${place.orgId} (local stack); reports through gateway ${gateways[1]}.`,
    );
    expect(await provision(args(freshDevId(), '5', ['--gateway', devId]))).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `Device ${devId} is not a gateway of organization ${place.orgId}.\n`,
    });
  }, 120_000);
});
