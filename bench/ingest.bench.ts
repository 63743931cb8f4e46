import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { topics } from '@argentum/contracts/messaging';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { mapLimited } from '@argentum/functions/lib/concurrency';
import { seriesKey } from '@argentum/functions/stores/telemetry-dynamodb';
import { floorPlans } from '../infra/local/demo-data';
import { connectLocalDevice } from '../infra/local/device-credentials';
import { freshDevId, registerDevice } from '../functions/test/support/telemetry';
import { storeCalls } from './store-calls';
import type { Bench } from './types';

const POINTS = 5000;
const BATCH = 25;
/** The floor and ingest take turns this many times, POINTS each a turn. */
const ROUNDS = 3;
/**
 * The devices that publish them, each over a connection of its own: IoT Core takes at most 100
 * publishes a second on a connection and discards the rest (the local broker too), so 50 each.
 */
const DEVICES = 100;

const values = (i: number) => ({ temp: 20 + (i % 7), hum: 40 });

/**
 * DynamoDB Local's own rate (items/s) for batch-writing `POINTS` raw telemetry items of the shape
 * ingest stores, 25 a request, `concurrency` requests in flight. Written after `from`, outside the
 * window the ingest measurement counts.
 */
async function batchWriteRate(devIds: readonly string[], from: number, concurrency: number) {
  const items = Array.from({ length: POINTS }, (_, i) => ({
    series: seriesKey(devIds[i % devIds.length] as string, 'raw'),
    t: from + i * 1000,
    v: values(i),
    expiresAt: Math.floor((from + i * 1000) / 1000) + 35 * 24 * 3600,
  }));
  const batches: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
  const started = performance.now();
  await mapLimited(batches, concurrency, async (batch) => {
    let request = batch.map((Item) => ({ PutRequest: { Item } }));
    while (request.length > 0) {
      const { UnprocessedItems } = await dynamo().send(
        new BatchWriteCommand({ RequestItems: { [config.telemetryTable]: request } }),
      );
      request = (UnprocessedItems?.[config.telemetryTable] ?? []).flatMap((r) =>
        r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item as (typeof items)[number] } }] : [],
      );
    }
  });
  return POINTS / ((performance.now() - started) / 1000);
}

/**
 * Telemetry from devices over MQTT, through the IoT-rule runner into the telemetry store, counted at
 * the end, against DynamoDB Local's own batch-write rate for the same items.
 */
const ingestBench: Bench = async ({ stack }) => {
  // On a floor of the demo, as a building's sensors are.
  const placedOn = floorPlans[0]?.floor;
  if (!placedOn) throw new Error('the demo has no floor');
  const sensors = Array.from({ length: DEVICES }, () => ({ devID: freshDevId(), orgID: placedOn.orgId }));
  for (const sensor of sensors)
    await registerDevice(sensor.devID, sensor.orgID, 5, ['temp', 'hum'], placedOn);
  const devIds = sensors.map((d) => d.devID);
  // Three days ago, on the hour: ingest refuses readings more than 7 days old (READING_WINDOW).
  const base = Math.floor((Date.now() - 3 * 24 * 3600_000) / 3600_000) * 3600_000;
  const end = base + ROUNDS * POINTS * 1000;

  /** Publishes `count` readings from `from` on, one a second per series, and waits until ingest stored them. */
  const ingest = async (from: number, count: number) => {
    // One connection per device: the broker binds a device's connection to its organization and id.
    const clients = await Promise.all(
      sensors.map((d) =>
        connectLocalDevice(`mqtt://127.0.0.1:${stack.ports.mqtt}`, stack.deviceSecret, {
          orgId: d.orgID,
          devId: d.devID,
        }),
      ),
    );
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const device = sensors[i % sensors.length];
      const client = clients[i % sensors.length];
      if (!device || !client) continue;
      client.publish(
        topics.sensorData(device.orgID, device.devID),
        JSON.stringify({ devID: device.devID, devType: 5, time: from + i * 1000, values: values(i) }),
      );
    }
    await Promise.all(clients.map((c) => c.endAsync()));
    // Give the broker a moment to hand every message to the rule runner, then wait for ingest to finish.
    await new Promise((r) => setTimeout(r, 200));
    await stack.ingestDrained();
    return count / ((performance.now() - started) / 1000);
  };

  // What is measured is ingest: the roll-ups, a function of their own fed by the telemetry table's
  // stream (on AWS with its own compute, and a batching window that holds them back), are held while
  // ingest is measured and run after it. Every item written here reaches them: each measurement
  // starts once the roll-ups of what was written before it are done, or that work competes with it
  // (the floor's own items were rolled up in the measured window before, and the readings' in the
  // floor's). The time they take after the window is printed.
  const calls = storeCalls();
  /** Ingests as `ingest` does, with the roll-ups held; `calls` counts ingest's store requests alone. */
  const measured = async (from: number, count: number) => {
    await stack.rollups.drained();
    await stack.rollups.pause();
    calls.reset();
    try {
      return await ingest(from, count);
    } finally {
      stack.rollups.resume();
    }
  };

  // Warm up with earlier readings, which also shows how many store requests ingest keeps in flight.
  await measured(base - 2 * POINTS * 1000, POINTS / 5);
  const concurrency = calls.maxInFlight;

  // The floor and ingest take turns, so that a load that comes and goes on this shared machine falls
  // on both alike (a floor taken once before and once after the run moved from 3,651 to 6,015 items/s
  // in one run); each side's rate is its items over its own time, all rounds together. The floor: the
  // same number of items of the same shape, batch-written at the same concurrency, far from the
  // measured readings, so no roll-up the redelivery recomputes counts them.
  const floorAt = end + 30 * 24 * 3600_000;
  const floors: number[] = [];
  let floorSeconds = 0;
  let ingestSeconds = 0;
  let rolledUpIn = 0;
  let described = '';
  for (let round = 0; round < ROUNDS; round++) {
    await stack.rollups.drained();
    const floorRate = await batchWriteRate(devIds, floorAt + round * POINTS * 1000, concurrency);
    floors.push(floorRate);
    floorSeconds += POINTS / floorRate;
    ingestSeconds += POINTS / (await measured(base + round * POINTS * 1000, POINTS));
    described = calls.describe(POINTS / 100);
    const rolling = performance.now();
    await stack.rollups.drained();
    rolledUpIn += (performance.now() - rolling) / 1000;
  }
  const rate = (ROUNDS * POINTS) / ingestSeconds;
  const floor = (ROUNDS * POINTS) / floorSeconds;
  console.log(
    `  store round trips per 100 points (last round): ${described}; up to ${concurrency} in flight; ` +
      `DynamoDB Local batch-writes ${floor.toFixed(0)} items/s (rounds: ${floors.map((f) => f.toFixed(0)).join(', ')}); ` +
      `the roll-ups of each round's ${POINTS} readings took ${(rolledUpIn / ROUNDS).toFixed(1)} s after them`,
  );

  // SQS delivers at least once: every batch of these devices once more, then count.
  // (Every batch once: each holds readings of many devices, and every reading here says devType 5.)
  const redelivered = await stack.redeliverTelemetry('"devType":5');
  console.log(`  redelivered ${redelivered} records (every batch of the run at least once more)`);
  // The roll-ups follow from the telemetry table's stream, off the ingest path: count them once settled.
  const settling = performance.now();
  await stack.rollups.drained();
  console.log(
    `  roll-ups settled ${((performance.now() - settling) / 1000).toFixed(1)} s after the redelivery`,
  );

  let stored = 0;
  let rolledUp = 0;
  for (const device of sensors) {
    const hours = await dynamo().send(
      new QueryCommand({
        TableName: config.telemetryTable,
        KeyConditionExpression: 'series = :s AND t BETWEEN :start AND :end',
        ExpressionAttributeValues: { ':s': seriesKey(device.devID, 'hour'), ':start': base, ':end': end - 1 },
        ConsistentRead: true,
      }),
    );
    rolledUp += (hours.Items ?? []).reduce((n, item) => n + Number(item.n ?? 0), 0);
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(
        new QueryCommand({
          TableName: config.telemetryTable,
          KeyConditionExpression: 'series = :s AND t BETWEEN :start AND :end',
          ExpressionAttributeValues: {
            ':s': seriesKey(device.devID, 'raw'),
            ':start': base,
            ':end': end - 1,
          },
          Select: 'COUNT',
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      stored += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return [
    { name: 'Ingest: sustained rate', value: rate, unit: 'points/s', floor, goal: { min: 0.8 } },
    { name: 'Ingest: points lost', value: ROUNDS * POINTS - stored, unit: 'points', goal: { max: 0 } },
    {
      name: 'Ingest: points doubled in roll-ups after redelivery',
      value: rolledUp - ROUNDS * POINTS,
      unit: 'points',
      goal: { max: 0, min: 0 },
    },
  ];
};

export default ingestBench;
