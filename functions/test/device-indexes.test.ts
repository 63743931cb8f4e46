import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import type { Device } from '../src/domain/devices/device';
import { handler as ingestHandler } from '../src/lambda/ingest';
import { deviceItem, dynamoDevices, migrateDeviceIndexes } from '../src/stores/devices';
import { batchWrite } from '../src/stores/dynamo-kit';
import { keys } from '../src/stores/keys';
import { consumedCapacity } from './support/consumed-capacity';
import { freshDevId } from './support/telemetry';
import { invokedAs } from '../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const handler = invokedAs('ingest', ingestHandler);

/**
 * The device item's indexes (gsi3: devices of a floor, gsi4: devices of an organization) project keys
 * only: what a reading writes reaches no index, and no reading ever writes an index key.
 */

const stored = async (devId: string) =>
  (
    await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.device(devId), ConsistentRead: true }),
    )
  ).Item;

const sensor = (orgID: string, floorID?: string): Device => ({
  devID: freshDevId(),
  devName: 'Sensor',
  devType: 5,
  orgID,
  onFloor: floorID !== undefined,
  ...(floorID !== undefined ? { floorID, buildID: `bld-${orgID}`, floorOrigin: { x: 0.5, y: 0.5 } } : {}),
  dataPoints: [{ dp: 'temp' }, { dp: 'hum' }],
  properties: {},
  updatedAt: new Date().toISOString(),
});

const put = (item: Record<string, unknown>) =>
  dynamo().send(new PutCommand({ TableName: config.platformTable, Item: item }));

/** One reading of each device as the telemetry queue hands it to ingest. */
const readings = (orgId: string, devIds: readonly string[], time: number): SQSEvent =>
  ({
    Records: devIds.map((devId, i) => ({
      messageId: randomUUID(),
      body: JSON.stringify({
        devID: devId,
        devType: 5,
        time: time + i,
        values: { temp: 23, hum: 45 },
        orgId,
        topicDevId: devId,
        receivedAt: time + i,
      }),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(time + i) },
    })),
  }) as unknown as SQSEvent;

const place = (device: Device, expectedVersion: number, floorId: string | 'off') =>
  dynamoDevices.commit({
    devices: [
      {
        devId: device.devID,
        orgId: device.orgID,
        expectedVersion,
        placement:
          floorId === 'off'
            ? 'off'
            : { floorId, buildId: `bld-${device.orgID}`, floorOrigin: { x: 0.1, y: 0.2 } },
      },
    ],
    floors: [],
    groups: [],
    live: [],
    now: new Date().toISOString(),
  });

describe('device indexes (keys only) and the latest-values write', () => {
  it('keeps the index keys the device calls set while readings arrive through ingest', async () => {
    const org = `idx-${randomUUID()}`;
    const [from, to] = [`flr-a-${org}`, `flr-b-${org}`];
    const device = sensor(org, from);
    await put(deviceItem(device));
    const start = Date.now() - 60_000;
    // Readings and a move to another floor at the same time: the move wins its keys, the readings
    // their values; no reading writes a key back.
    const [moved] = await Promise.all([
      place(device, 0, to),
      ...Array.from({ length: 5 }, (_, i) => handler(readings(org, [device.devID], start + i * 1000))),
    ]);
    expect(moved).toEqual({ outcome: 'written' });
    await handler(readings(org, [device.devID], start + 10_000));
    expect(await stored(device.devID)).toMatchObject({
      floorID: to,
      gsi3pk: `FLOOR#${to}`,
      gsi3sk: device.devID,
      gsi4pk: `ORGDEV#${org}`,
      lastSeen: start + 10_000,
      latest: { temp: 23, hum: 45 },
    });
    expect(await dynamoDevices.onFloor(from)).toEqual([]);
    expect((await dynamoDevices.onFloor(to)).map((d) => [d.devID, d.lastSeen, d.presence?.online])).toEqual([
      [device.devID, start + 10_000, true],
    ]);

    // Off the floor, readings still arriving: its floor key stays gone.
    const [off] = await Promise.all([
      place(device, 1, 'off'),
      handler(readings(org, [device.devID], start + 20_000)),
    ]);
    expect(off).toEqual({ outcome: 'written' });
    await handler(readings(org, [device.devID], start + 30_000));
    const item = await stored(device.devID);
    expect(item && ['gsi3pk', 'gsi3sk', 'floorID'].filter((k) => k in item)).toEqual([]);
    expect(item).toMatchObject({ onFloor: false, lastSeen: start + 30_000, gsi4pk: `ORGDEV#${org}` });
    expect(await dynamoDevices.onFloor(to)).toEqual([]);
    expect((await dynamoDevices.ofOrganization(org)).map((d) => [d.devID, d.lastSeen])).toEqual([
      [device.devID, start + 30_000],
    ]);
  });

  it('lists a floor of more devices than a query page and a batch read hold, with their latest values', async () => {
    const org = `idx-${randomUUID()}`;
    const floor = `flr-${org}`;
    const devices = Array.from({ length: 1100 }, () => ({
      ...sensor(org, floor),
      latest: { temp: 21.5 },
      lastSeen: 1000,
    }));
    await batchWrite(
      config.platformTable,
      devices.map((d) => ({ PutRequest: { Item: deviceItem(d) } })),
    );
    const listed = await dynamoDevices.onFloor(floor);
    expect(listed.map((d) => d.devID)).toEqual(devices.map((d) => d.devID).sort());
    expect(listed.every((d) => d.latest?.temp === 21.5 && d.lastSeen === 1000)).toBe(true);
    expect(await dynamoDevices.ofOrganization(org)).toHaveLength(1100);
  });

  it("makes no item of a deleted device's late reading, and lists it nowhere", async () => {
    const org = `idx-${randomUUID()}`;
    const device = sensor(org, `flr-${org}`);
    await put(deviceItem(device));
    const start = Date.now() - 60_000;
    expect((await handler(readings(org, [device.devID], start))).batchItemFailures).toEqual([]);
    await dynamo().send(
      new DeleteCommand({ TableName: config.platformTable, Key: keys.device(device.devID) }),
    );
    expect((await handler(readings(org, [device.devID], start + 1000))).batchItemFailures).toEqual([]);
    expect(await dynamoDevices.recordLatest(device.devID, start + 2000, { temp: 1 })).toBeUndefined();
    expect(await stored(device.devID)).toBeUndefined();
    expect(await dynamoDevices.ofOrganization(org)).toEqual([]);
    expect(await dynamoDevices.onFloor(`flr-${org}`)).toEqual([]);
  });

  it('moves devices of the old layout (gsi1/gsi2 keys) onto the device indexes, then drops the old keys', async () => {
    const org = `idx-${randomUUID()}`;
    const [placed, off, stale] = [sensor(org, `flr-${org}`), sensor(org), sensor(org, `flr-${org}`)];
    // As the code before wrote them: the floor in gsi1, the organization in gsi2, every attribute copied.
    const oldItem = (device: Device) => ({
      ...keys.device(device.devID),
      ...(device.onFloor ? { gsi1pk: `FLOOR#${String(device.floorID)}`, gsi1sk: device.devID } : {}),
      gsi2pk: `ORGDEV#${org}`,
      gsi2sk: device.devID,
      entity: 'device',
      ...device,
    });
    await put(oldItem(placed));
    await put(oldItem(off));
    // Moved by the code before after a first migration: its gsi3 key names the floor it left.
    await put({ ...oldItem(stale), gsi3pk: `FLOOR#flr-gone-${org}`, gsi3sk: stale.devID, version: 2 });
    expect(await dynamoDevices.ofOrganization(org)).toEqual([]);

    await migrateDeviceIndexes({ dropOldKeys: false });
    expect((await dynamoDevices.onFloor(`flr-${org}`)).map((d) => d.devID)).toEqual(
      [placed.devID, stale.devID].sort(),
    );
    expect((await dynamoDevices.ofOrganization(org)).map((d) => d.devID)).toEqual(
      [placed.devID, off.devID, stale.devID].sort(),
    );
    expect(await dynamoDevices.onFloor(`flr-gone-${org}`)).toEqual([]);
    // The code before still finds them where it looks.
    expect(await stored(placed.devID)).toMatchObject({ gsi1pk: `FLOOR#flr-${org}`, gsi2pk: `ORGDEV#${org}` });

    await migrateDeviceIndexes({ dropOldKeys: true });
    for (const device of [placed, off, stale]) {
      const item = await stored(device.devID);
      expect(item && ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'].filter((k) => k in item)).toEqual([]);
    }
    expect(await stored(stale.devID)).toMatchObject({ gsi3pk: `FLOOR#flr-${org}`, version: 2 });

    // From then on a reading writes the item and no index.
    const consumed = consumedCapacity();
    consumed.reset();
    expect(await dynamoDevices.recordLatest(placed.devID, Date.now(), { temp: 21 })).toMatchObject({
      floorID: `flr-${org}`,
      latest: { temp: 21 },
    });
    expect([...consumed.write.keys()]).toEqual([config.platformTable]);
  });
});
