import { randomUUID } from 'node:crypto';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import type { BackOff } from '../src/lib/backoff';
import { batchGet, UnprocessedItemsError } from '../src/stores/dynamo-kit';
import { handler as ingestHandler } from '../src/lambda/ingest';
import { handler as telemetryRollupsHandler } from '../src/lambda/telemetry-rollups';
import { dynamoDevices } from '../src/stores/devices';
import { dynamoTelemetryStore, seriesKey, writeRawReadings } from '../src/stores/telemetry-dynamodb';
import { throughputFaults } from './support/throughput-faults';
import { freshDevId, registerDevice, seriesItems } from './support/telemetry';
import { invokedAs } from '../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const ingest = invokedAs('ingest', ingestHandler);
const rollups = invokedAs('telemetry-rollups', telemetryRollupsHandler);

/**
 * A provisioned table that runs out of capacity throttles (docs/cost.md): every throttled write and
 * read is retried, and what still fails comes again through the queue or the stream; no reading is
 * lost, none counted twice. DynamoDB Local meters nothing, so the throttles are injected around its
 * real calls (support/throughput-faults.ts).
 */
const faults = throughputFaults();
afterEach(() => faults.clear());

const HOUR = 3_600_000;

interface Reading {
  messageId: string;
  devId: string;
  time: number;
  temp: number;
}

/** Queue messages as the event source hands them to ingest (`receives`: this delivery's count). */
const queueEvent = (orgId: string, readings: readonly Reading[], receives = 1): SQSEvent =>
  ({
    Records: readings.map((r) => ({
      messageId: r.messageId,
      body: JSON.stringify({
        devID: r.devId,
        devType: 5,
        time: r.time,
        values: { temp: r.temp, hum: 45 },
        orgId,
        topicDevId: r.devId,
        receivedAt: r.time,
      }),
      attributes: { ApproximateReceiveCount: String(receives), SentTimestamp: String(r.time) },
    })),
  }) as unknown as SQSEvent;

/** The telemetry table's stream records (keys only) of raw items, as Lambda hands them to the roll-ups. */
const streamEvent = (keys: readonly { devId: string; time: number }[]): DynamoDBStreamEvent => ({
  Records: keys.map((k, i) => ({
    eventName: 'INSERT',
    dynamodb: {
      Keys: { series: { S: seriesKey(k.devId, 'raw') }, t: { N: String(k.time) } },
      SequenceNumber: String(1000 + i),
    },
  })),
});

/** Two readings a device, a minute apart, inside one hour a few hours ago. */
function readingsOf(devIds: readonly string[]): Reading[] {
  const hour = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR;
  return devIds.flatMap((devId, d) =>
    [0, 1].map((i) => ({
      messageId: randomUUID(),
      devId,
      time: hour + 60_000 * (d * 2 + i + 1),
      temp: 20 + d + i / 10,
    })),
  );
}

async function registered(count: number) {
  const orgId = `thr-${randomUUID()}`;
  const devIds = Array.from({ length: count }, () => freshDevId());
  for (const devId of devIds) await registerDevice(devId, orgId);
  return { orgId, devIds };
}

describe('ingest under throttling', () => {
  it('retries throttled writes, fails only the readings still not stored, and a redelivery stores each exactly once', async () => {
    const { orgId, devIds } = await registered(4);
    const [unprocessed, retried, latestThrottled, untouched] = devIds as [string, string, string, string];
    const readings = readingsOf(devIds);
    // The raw batch write keeps leaving one device's items unprocessed (past the kit's retries); another
    // device's is throttled once, which the SDK retries; a third device's latest-values update is still
    // throttled after the SDK's retries.
    faults.add({
      command: 'BatchWriteItemCommand',
      mentioning: unprocessed,
      kind: 'unprocessed',
      times: Infinity,
    });
    faults.add({
      command: 'BatchWriteItemCommand',
      mentioning: retried,
      kind: 'throttled',
      times: 1,
      underSdkRetries: true,
    });
    faults.add({ command: 'UpdateItemCommand', mentioning: latestThrottled, kind: 'throttled', times: 1 });

    const first = await ingest(queueEvent(orgId, readings));
    const failed = new Set(first.batchItemFailures.map((f) => f.itemIdentifier));
    const messagesOf = (devId: string) => readings.filter((r) => r.devId === devId);
    expect(failed).toEqual(
      new Set([...messagesOf(unprocessed), ...messagesOf(latestThrottled)].map((r) => r.messageId)),
    );
    // The kit sent the unprocessed items again and again (8 requests), the SDK the throttled one twice.
    expect(faults.hits.get(`unprocessed:BatchWriteItemCommand:${unprocessed}`)).toBe(8);
    expect(faults.hits.get(`throttled:BatchWriteItemCommand:${retried}`)).toBe(1);
    // Nothing of the unprocessed device is stored yet: it is not counted as stored anywhere.
    expect(await seriesItems(unprocessed, 'raw')).toEqual([]);
    expect((await dynamoDevices.get(unprocessed))?.lastSeen).toBeUndefined();

    // The queue delivers the failed messages again; the table has capacity again.
    faults.clear();
    const again = readings.filter((r) => failed.has(r.messageId));
    expect((await ingest(queueEvent(orgId, again, 2))).batchItemFailures).toEqual([]);

    for (const devId of [unprocessed, retried, latestThrottled, untouched]) {
      const own = messagesOf(devId);
      const raw = await seriesItems(devId, 'raw');
      // Every reading once: none lost, none doubled (a rewrite of a raw item overwrites its own key).
      expect(
        raw.map((item) => [item.t, (item.v as { temp: number }).temp]),
        devId,
      ).toEqual(own.map((r) => [r.time, r.temp]));
      const newest = own.at(-1) as Reading;
      expect(await dynamoDevices.get(devId), devId).toMatchObject({
        lastSeen: newest.time,
        latest: { temp: newest.temp, hum: 45 },
      });
    }

    // The roll-ups see each raw write through the stream, the rewritten ones twice: each hour counts
    // each reading once.
    const keys = [...readings, ...again].map((r) => ({ devId: r.devId, time: r.time }));
    expect((await rollups(streamEvent(keys))).batchItemFailures).toEqual([]);
    for (const devId of devIds) {
      const [hour] = await seriesItems(devId, 'hour');
      const own = messagesOf(devId);
      expect(hour, devId).toMatchObject({ n: 2, sum_temp: own.reduce((n, r) => n + r.temp, 0) });
    }
  });
});

describe('roll-ups under throttling', () => {
  it('report the first record of a device whose hour could not be read or written, and recompute it when it comes again', async () => {
    const devIds = [freshDevId(), freshDevId(), freshDevId()];
    const [readThrottled, writeThrottled, untouched] = devIds as [string, string, string];
    const readings = readingsOf(devIds);
    const { failedDevices } = await writeRawReadings(
      readings.map((r) => ({ devId: r.devId, time: r.time, values: { temp: r.temp } })),
    );
    expect(failedDevices.size).toBe(0);
    // Still throttled after the SDK's retries: the hour's consistent read of one device, the roll-up
    // put of another.
    faults.add({ command: 'QueryCommand', mentioning: readThrottled, kind: 'throttled', times: Infinity });
    faults.add({ command: 'PutItemCommand', mentioning: writeThrottled, kind: 'throttled', times: Infinity });

    const event = streamEvent(readings.map((r) => ({ devId: r.devId, time: r.time })));
    const { batchItemFailures } = await rollups(event);
    // The stream is retried from the earliest record of a failed device (it keeps order per key).
    const firstOf = (devId: string) =>
      event.Records.find((r) => r.dynamodb?.Keys?.series?.S === seriesKey(devId, 'raw'))?.dynamodb
        ?.SequenceNumber;
    expect(batchItemFailures).toEqual([{ itemIdentifier: firstOf(readThrottled) }]);
    expect(faults.hits.get(`throttled:PutItemCommand:${writeThrottled}`)).toBeGreaterThan(0);

    faults.clear();
    const from = event.Records.findIndex((r) => r.dynamodb?.SequenceNumber === firstOf(readThrottled));
    expect((await rollups({ Records: event.Records.slice(from) })).batchItemFailures).toEqual([]);
    for (const devId of [readThrottled, writeThrottled, untouched]) {
      const own = readings.filter((r) => r.devId === devId);
      expect((await seriesItems(devId, 'hour'))[0], devId).toMatchObject({
        n: 2,
        sum_temp: own.reduce((n, r) => n + r.temp, 0),
      });
    }
  });
});

describe('graph reads under throttling', () => {
  it('answer in full when the SDK retry gets through, and fail as a whole (never a partial graph) when it does not', async () => {
    const devId = freshDevId();
    const readings = readingsOf([devId]);
    await writeRawReadings(readings.map((r) => ({ devId, time: r.time, values: { temp: r.temp } })));
    const from = (readings[0] as Reading).time;
    const to = (readings.at(-1) as Reading).time;

    faults.add({
      command: 'QueryCommand',
      mentioning: devId,
      kind: 'throttled',
      times: 1,
      underSdkRetries: true,
    });
    const page = await dynamoTelemetryStore.readRaw(devId, from, to, 100);
    expect(page.items.map((p) => p.time)).toEqual(readings.map((r) => r.time));
    expect(faults.hits.get(`throttled:QueryCommand:${devId}`)).toBe(1);

    // Throttled on every attempt: the SDK tries as often as the client is configured to (4 for
    // DynamoDB), then the read fails (the API answers an error the page shows, and the user reads again).
    faults.clear();
    faults.add({
      command: 'QueryCommand',
      mentioning: devId,
      kind: 'throttled',
      times: Infinity,
      underSdkRetries: true,
    });
    await expect(dynamoTelemetryStore.readRaw(devId, from, to, 100)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    const attempts = await dynamo().config.maxAttempts();
    expect(attempts).toBeGreaterThan(1);
    expect(faults.hits.get(`throttled:QueryCommand:${devId}`)).toBe(attempts);
  });
});

describe('batch reads under throttling', () => {
  const noWait: BackOff = { attempts: 3, baseMs: 1, capMs: 1, sleep: async () => undefined, random: () => 0 };
  const stored = async () => {
    const pk = `BATCH#${randomUUID()}`;
    const items = [1, 2, 3].map((n) => ({
      pk,
      sk: `ITEM#${n}`,
      n,
      name: `item ${n}`,
      bytes: new Uint8Array([n, 0, 255]),
      tags: new Set([`t${n}`]),
    }));
    for (const item of items)
      await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: item }));
    return items;
  };
  const bySk = (items: readonly Record<string, unknown>[]) =>
    [...items].sort((a, b) => String(a.sk).localeCompare(String(b.sk)));

  it('reads again the keys DynamoDB left unprocessed, and answers every item as it was written', async () => {
    const items = await stored();
    faults.add({ command: 'BatchGetItemCommand', mentioning: 'ITEM#2', kind: 'unprocessed', times: 2 });
    const found = await batchGet(
      config.platformTable,
      items.map(({ pk, sk }) => ({ pk, sk })),
      { consistent: true },
      noWait,
    );
    expect(faults.hits.get('unprocessed:BatchGetItemCommand:ITEM#2')).toBe(2);
    // Binary attributes come back as Buffers (aws/dynamo.ts decodes base64 with Buffer).
    const asWritten = bySk(found).map((item) => ({
      ...item,
      bytes: new Uint8Array(item.bytes as Uint8Array),
    }));
    expect(asWritten).toEqual(items);
  });

  it('fails after its last attempt, naming the keys still unread', async () => {
    const items = await stored();
    faults.add({
      command: 'BatchGetItemCommand',
      mentioning: 'ITEM#3',
      kind: 'unprocessed',
      times: Infinity,
    });
    const read = batchGet(
      config.platformTable,
      items.map(({ pk, sk }) => ({ pk, sk })),
      { consistent: true },
      noWait,
    );
    const error = await read.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessedItemsError);
    expect(error).toMatchObject({
      operation: 'BatchGetItem',
      attempts: 3,
      unprocessed: [{ pk: items[2]?.pk, sk: 'ITEM#3' }],
    });
  });
});
