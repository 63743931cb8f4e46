import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { INGEST_UNITS_PER_READING } from '../../tools/cost';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { handler as ingestHandler } from '../src/lambda/ingest';
import { dynamoDevices, deviceItem } from '../src/stores/devices';
import { consumedCapacity } from './support/consumed-capacity';
import { freshDevId } from './support/telemetry';
import { invokedAs } from '../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const handler = invokedAs('ingest', ingestHandler);

const DEVICES = 20;

/** A batch of the telemetry queue as the event source hands it to ingest: one reading a device. */
const batchOf = (orgId: string, devIds: readonly string[], time: number): SQSEvent =>
  ({
    Records: devIds.map((devId, i) => ({
      messageId: randomUUID(),
      body: JSON.stringify({
        devID: devId,
        devType: 5,
        time: time + i,
        // Inside their comfort zones: an out-of-zone reading reads its alarm state (alarms' cost, not ingest's).
        values: { temp: 23 + (i % 3), hum: 45 },
        orgId,
        topicDevId: devId,
        receivedAt: time + i,
      }),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(time + i) },
    })),
  }) as unknown as SQSEvent;

describe('what a reading costs in DynamoDB (the cost model, tools/cost.ts, against the real handler)', () => {
  it("writes a raw item and the device's latest values (copied into no index) and reads nothing, as the model counts", async () => {
    const orgId = `cost-${randomUUID()}`;
    const devIds = Array.from({ length: DEVICES }, () => freshDevId());
    // Sensors as the device calls leave them, in their organization's index; half of them placed, so
    // also in their floor's.
    for (const [i, devId] of devIds.entries())
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: deviceItem({
            devID: devId,
            devName: `Sensor ${devId.slice(-5)}`,
            devType: 5,
            orgID: orgId,
            ...(i % 2 === 0
              ? {
                  onFloor: true,
                  floorID: `flr-${orgId}`,
                  buildID: `bld-${orgId}`,
                  floorOrigin: { x: 120, y: 80 },
                }
              : { onFloor: false }),
            dataPoints: [{ dp: 'temp' }, { dp: 'hum' }],
            properties: {},
            updatedAt: new Date().toISOString(),
          }),
        }),
      );
    const consumed = consumedCapacity();
    const start = Date.now() - 60_000;
    // The first readings move the devices online (presence writes, once); then a minute later the next.
    expect((await handler(batchOf(orgId, devIds, start))).batchItemFailures).toEqual([]);
    for (const devId of devIds) expect((await dynamoDevices.get(devId))?.presence?.online).toBe(true);

    consumed.reset();
    expect((await handler(batchOf(orgId, devIds, start + 60_000))).batchItemFailures).toEqual([]);
    const perReading = (key: string) => (consumed.write.get(key) ?? 0) / DEVICES;
    // Every index of the platform table DynamoDB reported a write to.
    const indexWrites = [...consumed.write.keys()]
      .filter((key) => key.startsWith(`${config.platformTable}/`))
      .reduce((n, key) => n + perReading(key), 0);
    const u = INGEST_UNITS_PER_READING;
    expect({
      raw: perReading(config.telemetryTable),
      latest: perReading(config.platformTable),
      indexes: indexWrites,
      reads: consumed.total('read') / DEVICES,
    }).toEqual({
      raw: u.rawWrite,
      latest: u.latestWrite,
      indexes: u.latestIndexWrites,
      reads: u.reads,
    });
    // The meter sees index writes: a device placed on another floor changes its gsi3 key.
    consumed.reset();
    const moved = await dynamoDevices.commit({
      devices: [
        {
          devId: devIds[0] as string,
          orgId,
          expectedVersion: 0,
          placement: { floorId: `flr2-${orgId}`, buildId: `bld-${orgId}`, floorOrigin: { x: 1, y: 1 } },
        },
      ],
      floors: [],
      groups: [],
      live: [],
      now: new Date().toISOString(),
    });
    expect(moved).toEqual({ outcome: 'written' });
    expect(consumed.write.get(`${config.platformTable}/gsi3`)).toBeGreaterThan(0);
    // And the readings were recorded: latest values and lastSeen of the second batch, presence online.
    const device = await dynamoDevices.get(devIds[1] as string);
    expect(device).toMatchObject({ lastSeen: start + 60_001, latest: { temp: 24, hum: 45 } });
    expect(device?.presence?.online).toBe(true);
  });
});
