import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dynamoRawTelemetryStore, dynamoTelemetryStore } from '../src/stores/telemetry-dynamodb';
import { telemetryStoreContract } from './support/telemetry-store-contract';

// The DynamoDB adapter on DynamoDB Local.
telemetryStoreContract('DynamoDB', () => dynamoTelemetryStore);

describe('DynamoDB telemetry writes', () => {
  it('reports only the device whose item DynamoDB refuses; the others of the same request are stored', async () => {
    const id = () => `dyn-${randomUUID().slice(0, 8)}`;
    const [poisoned, neighbour, other] = [id(), id(), id()];
    const time = Date.UTC(2026, 2, 11, 9);
    const points = [
      { devId: neighbour, time, values: { temp: 21 } },
      // Past Number.MAX_SAFE_INTEGER: the document client refuses to marshal it.
      { devId: poisoned, time, values: { temp: 2 ** 53 } },
      { devId: other, time, values: { temp: 22 } },
    ];
    const { failedDevices } = await dynamoRawTelemetryStore.write(points);
    expect([...failedDevices]).toEqual([poisoned]);
    for (const [devId, temp] of [
      [neighbour, 21],
      [other, 22],
    ] as const)
      expect((await dynamoTelemetryStore.readRaw(devId, time, time, 10)).items).toEqual([
        { devId, time, values: { temp } },
      ]);
  });
});
