import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../src/aws/dynamo';
import {
  dynamoRawTelemetryStore,
  dynamoTelemetryStore,
  recomputeHours,
  seriesKey,
  writeRawReadings,
} from '../src/stores/telemetry-dynamodb';
import { telemetryTable } from '../../infra/src/definitions';
import { ENV } from '../src/environment';
import { gate } from './support/gate';
import { seriesItems } from './support/telemetry';
import { telemetryStoreContract } from './support/telemetry-store-contract';
import { onUnwatchedTable } from './support/unwatched-table';
import { hoursAgo } from './support/recent';

// The DynamoDB adapter on DynamoDB Local.
telemetryStoreContract('DynamoDB', () => dynamoTelemetryStore);

describe('DynamoDB telemetry writes', () => {
  it('reports only the device whose item DynamoDB refuses; the others of the same request are stored', async () => {
    const id = () => `dyn-${randomUUID().slice(0, 8)}`;
    const [poisoned, neighbour, other] = [id(), id(), id()];
    const time = hoursAgo(3);
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

/**
 * Holds the next strongly consistent Query of a device's raw series once it has answered: a roll-up
 * computed from that answer is then from an older view of the hour than what is stored meanwhile.
 */
const held = new Map<string, ReturnType<typeof gate>>();
const HOLD = 'holdRawRead';
beforeAll(() => {
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName !== 'QueryCommand') return result;
      const text = JSON.stringify(args.input);
      for (const [devId, hold] of held)
        if (text.includes(seriesKey(devId, 'raw'))) {
          held.delete(devId);
          await hold.pass();
        }
      return result;
    },
    { step: 'initialize', name: HOLD },
  );
});
afterAll(() => void dynamo().middlewareStack.remove(HOLD));

describe('DynamoDB hourly roll-ups', () => {
  // No roll-up consumer on this table: the stack's, fed by the stream, would recompute the hour of
  // each write the tests make, landing between the steps they play.
  onUnwatchedTable(telemetryTable, ENV.telemetryTable);
  const hour = hoursAgo(3);
  const reading = (devId: string, temp: number, minute = 10) => ({
    devId,
    time: hour + minute * 60_000,
    values: { temp },
  });
  const hourItem = async (devId: string) => (await seriesItems(devId, 'hour'))[0];

  it('never lets a roll-up computed from an older view of the hour overwrite a newer one', async () => {
    const devId = `dyn-${randomUUID().slice(0, 8)}`;
    await writeRawReadings([reading(devId, 21, 5), reading(devId, 21)]);
    // A recomputation reads the hour (21 and 21) and is held before its put ...
    const hold = gate();
    held.set(devId, hold);
    const stale = recomputeHours([{ devId, hour }]);
    await hold.reached;
    // ... while the device's corrected reading (same time, 25) is stored and its hour recomputed.
    await writeRawReadings([reading(devId, 25)]);
    expect(await recomputeHours([{ devId, hour }])).toEqual(new Set());
    expect(await hourItem(devId)).toMatchObject({ n: 2, sum_temp: 46, max_temp: 25 });
    // The held one puts last: its put is refused, and it reads the hour again.
    hold.release();
    expect(await stale).toEqual(new Set());
    expect(await hourItem(devId)).toMatchObject({ n: 2, sum_temp: 46, max_temp: 25 });
  });

  it('lets the recomputation that read the newest view land when an older one puts before it', async () => {
    const devId = `dyn-${randomUUID().slice(0, 8)}`;
    await writeRawReadings([reading(devId, 21, 5), reading(devId, 21)]);
    expect(await recomputeHours([{ devId, hour }])).toEqual(new Set());
    // One recomputation reads the hour (21 and 21) and is held; the corrected reading is stored and
    // its recomputation reads it (21 and 25) and is held too.
    const older = gate();
    held.set(devId, older);
    const stale = recomputeHours([{ devId, hour }]);
    await older.reached;
    await writeRawReadings([reading(devId, 25)]);
    const newer = gate();
    held.set(devId, newer);
    const fresh = recomputeHours([{ devId, hour }]);
    await newer.reached;
    // The older view puts first (nothing was put since it read), then the newer one's put is refused
    // and it reads the hour again: the last put holds the correction.
    older.release();
    expect(await stale).toEqual(new Set());
    expect(await hourItem(devId)).toMatchObject({ n: 2, sum_temp: 42 });
    newer.release();
    expect(await fresh).toEqual(new Set());
    expect(await hourItem(devId)).toMatchObject({ n: 2, sum_temp: 46, max_temp: 25 });
  });
});
