import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import {
  addValue,
  type Bucket,
  bucketSize,
  bucketStart,
  mergeStats,
  type PointStats,
  type RollupResolution,
  type TelemetryPoint,
  type TelemetryStore,
} from '../domain/telemetry/telemetry';
import { conflictBackOff, pauseBefore } from '../lib/backoff';
import { mapLimited } from '../lib/concurrency';
import {
  BATCH_WRITE_LIMIT,
  batchWrite,
  isThroughputError,
  type Item,
  queryAll,
  queryPages,
  UnprocessedItemsError,
} from './dynamo-kit';

/** Raw readings are kept this long (infra/src/definitions.ts rawTelemetryRetentionDays); roll-ups for good. */
export const RAW_RETENTION_DAYS = 35;
/** Requests in flight per write: DynamoDB Local is saturated by about this many. */
const CONCURRENCY = 8;

export const seriesKey = (devId: string, resolution: 'raw' | 'hour' | 'day') => `${devId}#${resolution}`;

/**
 * A roll-up item: `n` readings, and per data point `sum_`, `count_`, `min_`, `max_` attributes (its
 * put adds `rev`, the revision, recomputeHour).
 */
function rollupItem(series: string, t: number, n: number, stats: Record<string, PointStats>): Item {
  const item: Item = { series, t, n };
  for (const [dp, s] of Object.entries(stats)) {
    item[`sum_${dp}`] = s.sum;
    item[`count_${dp}`] = s.count;
    item[`min_${dp}`] = s.min;
    item[`max_${dp}`] = s.max;
  }
  return item;
}

function statsOf(item: Item): Record<string, PointStats> {
  const stats: Record<string, PointStats> = {};
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith('sum_') || typeof value !== 'number') continue;
    const dp = name.slice(4);
    const count = Number(item[`count_${dp}`] ?? 0);
    // Items written before min and max were kept have the mean for both.
    const mean = count > 0 ? value / count : 0;
    stats[dp] = {
      sum: value,
      count,
      min: typeof item[`min_${dp}`] === 'number' ? (item[`min_${dp}`] as number) : mean,
      max: typeof item[`max_${dp}`] === 'number' ? (item[`max_${dp}`] as number) : mean,
    };
  }
  return stats;
}

const writeBatch = (items: Item[]) =>
  batchWrite(
    config.telemetryTable,
    items.map((Item) => ({ PutRequest: { Item } })),
  );

/**
 * Every item of a series in [from, to] (strongly consistent), only the named attributes; none for an
 * empty range (DynamoDB refuses a BETWEEN whose bounds are the wrong way round).
 */
async function readSeries(series: string, from: number, to: number, projection?: string): Promise<Item[]> {
  if (from > to) return [];
  return queryAll({
    TableName: config.telemetryTable,
    KeyConditionExpression: 'series = :s AND t BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':s': series, ':from': from, ':to': to },
    ConsistentRead: true,
    ...(projection ? { ProjectionExpression: projection } : {}),
  });
}

/**
 * The revision of a stored roll-up (`rev`, raised by each put), or undefined when there is none (no
 * roll-up yet, or one written before revisions were kept). Eventually consistent: a stale answer only
 * makes the put's condition fail, and the recomputation is tried again.
 */
async function rollupRevision(series: string, t: number): Promise<number | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.telemetryTable,
      Key: { series, t },
      ProjectionExpression: '#rev',
      ExpressionAttributeNames: { '#rev': 'rev' },
    }),
  );
  return typeof Item?.rev === 'number' ? Item.rev : undefined;
}

/**
 * Puts a roll-up if the stored one is still at the revision read before the raw readings were
 * (compare-and-set); false when another recomputation put the hour meanwhile.
 */
async function putRollup(item: Item, read: number | undefined): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: config.telemetryTable,
        Item: { ...item, rev: (read ?? 0) + 1 },
        ExpressionAttributeNames: { '#rev': 'rev' },
        ...(read === undefined
          ? { ConditionExpression: 'attribute_not_exists(#rev)' }
          : { ConditionExpression: '#rev = :read', ExpressionAttributeValues: { ':read': read } }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/**
 * Recomputes a device's hour bucket from its raw readings: reads the roll-up's revision, then the
 * hour's raw readings (strongly consistent), and puts the figures only if the revision is unchanged.
 * A reading rewritten with other values (a corrected reading, a redelivery that differs) changes the
 * figures though the count stays, so the count cannot tell a newer view of the hour from an older one
 * (a digest of the items tells two views apart, not which is newer); the revision can. A put that
 * lands means no put landed since its revision read, which came before its raw read; so a
 * recomputation that read an older view (before some raw write W)
 * either lands before the recomputation W triggers (which reads after W) puts, or fails and reads
 * again. The last put is always from a view that holds every raw write. A redelivered identical batch
 * puts the same figures again.
 */
async function recomputeHour(devId: string, hour: number): Promise<void> {
  const size = bucketSize('hour');
  const series = seriesKey(devId, 'hour');
  for (let attempt = 1; ; attempt++) {
    const read = await rollupRevision(series, hour);
    const items = await readSeries(seriesKey(devId, 'raw'), hour, hour + size - 1, 'v');
    // No raw readings (expired): the stored roll-up stays as it is. No hour loses readings to expiry
    // while it is still written to: ingest takes readings up to 7 days old, raw ones are kept 35 days.
    if (items.length === 0) return;
    const stats: Record<string, PointStats> = {};
    for (const item of items) {
      for (const [dp, value] of Object.entries((item.v ?? {}) as Record<string, unknown>)) {
        if (typeof value === 'number') addValue(stats, dp, value);
      }
    }
    if (await putRollup(rollupItem(series, hour, items.length, stats), read)) return;
    if (attempt >= conflictBackOff.attempts) throw new Error(`roll-up of ${series} @${hour} kept changing`);
    await pauseBefore(attempt);
  }
}

/**
 * Daily buckets, merged from the hourly ones when read: a day item would cost another write per device
 * and batch (the biggest DynamoDB cost after the raw items, docs/cost.md), while a year of hours is
 * 8,784 small items read only for ranges over 60 days.
 */
async function readDays(devId: string, from: number, to: number, limit: number) {
  const start = bucketStart(from, 'day');
  const hours = await readSeries(
    seriesKey(devId, 'hour'),
    start,
    bucketStart(to, 'day') + bucketSize('day') - 1,
  );
  const days = new Map<number, Bucket>();
  for (const hour of hours) {
    const day = bucketStart(Number(hour.t), 'day');
    let bucket = days.get(day);
    if (!bucket) days.set(day, (bucket = { time: day, stats: {} }));
    mergeStats(bucket.stats, statsOf(hour));
  }
  const items = [...days.values()].sort((a, b) => a.time - b.time);
  return { items: items.slice(0, limit), more: items.length > limit };
}

async function readPage(series: string, from: number, to: number, limit: number) {
  const items: Item[] = [];
  if (from > to) return { items, more: false };
  for await (const page of queryPages({
    TableName: config.telemetryTable,
    KeyConditionExpression: 'series = :s AND t BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':s': series, ':from': from, ':to': to },
    Limit: limit + 1,
  })) {
    items.push(...(page.Items ?? []));
    if (items.length > limit) break;
  }
  return { items: items.slice(0, limit), more: items.length > limit };
}

/**
 * The devices of a throttled batch whose items were not written: the ones DynamoDB named unprocessed,
 * or every device of the batch when it named none it could be matched with.
 */
function unwrittenDevices(batch: readonly { devId: string; item: Item }[], error: unknown): Set<string> {
  const all = new Set(batch.map((r) => r.devId));
  if (!(error instanceof UnprocessedItemsError)) return all;
  const deviceOf = new Map(batch.map((r) => [`${String(r.item.series)}@${String(r.item.t)}`, r.devId]));
  const devices = new Set<string>();
  for (const request of error.unprocessed as { PutRequest?: { Item?: Item } }[]) {
    const item = request.PutRequest?.Item;
    const devId = deviceOf.get(`${String(item?.series)}@${String(item?.t)}`);
    if (devId === undefined) return all;
    devices.add(devId);
  }
  return devices;
}

/**
 * Writes raw readings only (one item per device and time); answers the devices whose items could not
 * all be written. The roll-ups follow from the table's stream (recomputeHours).
 */
export async function writeRawReadings(points: readonly TelemetryPoint[]): Promise<{
  failedDevices: Set<string>;
  unique: TelemetryPoint[];
}> {
  const failedDevices = new Set<string>();
  // One item per device and time (BatchWrite refuses two puts of one key in a request).
  const byKey = new Map<string, TelemetryPoint>();
  for (const p of points) byKey.set(`${p.devId}@${p.time}`, p);
  const unique = [...byKey.values()];
  const raw = unique.map((p) => ({
    devId: p.devId,
    item: {
      series: seriesKey(p.devId, 'raw'),
      t: p.time,
      v: p.values,
      expiresAt: Math.floor(p.time / 1000) + RAW_RETENTION_DAYS * 24 * 3600,
    },
  }));
  const batches: (typeof raw)[] = [];
  for (let i = 0; i < raw.length; i += BATCH_WRITE_LIMIT) batches.push(raw.slice(i, i + BATCH_WRITE_LIMIT));
  await mapLimited(batches, CONCURRENCY, async (batch) => {
    try {
      await writeBatch(batch.map((r) => r.item));
    } catch (error) {
      // Throttled (the table's capacity, after the retries): the items DynamoDB did not write are
      // named, and only their devices fail (their readings come again; rewriting one is idempotent).
      // Trying items alone would only send more requests into the same throttle.
      if (isThroughputError(error)) {
        for (const devId of unwrittenDevices(batch, error)) failedDevices.add(devId);
        return;
      }
      // One item DynamoDB refuses fails the whole request (other devices, other organizations): each
      // item is tried alone, so only the devices whose own items cannot be written are reported.
      for (const r of batch) {
        try {
          await writeBatch([r.item]);
        } catch {
          failedDevices.add(r.devId);
        }
      }
    }
  });
  return { failedDevices, unique };
}

/** Recomputes the hourly roll-ups of the given devices' hours; answers the devices that failed. */
export async function recomputeHours(
  hours: readonly { devId: string; hour: number }[],
): Promise<Set<string>> {
  const failedDevices = new Set<string>();
  const unique = new Map(hours.map((h) => [`${h.devId}@${bucketStart(h.hour, 'hour')}`, h] as const));
  await mapLimited([...unique.values()], CONCURRENCY, async ({ devId, hour }) => {
    try {
      await recomputeHour(devId, bucketStart(hour, 'hour'));
    } catch {
      failedDevices.add(devId);
    }
  });
  return failedDevices;
}

/** The device and hour of a raw item's key, or undefined for any other item (roll-ups). */
export function rawKeyHour(key: {
  series?: unknown;
  t?: unknown;
}): { devId: string; hour: number } | undefined {
  if (typeof key.series !== 'string' || !key.series.endsWith('#raw')) return undefined;
  const t = Number(key.t);
  if (!Number.isFinite(t)) return undefined;
  return { devId: key.series.slice(0, -'#raw'.length), hour: bucketStart(t, 'hour') };
}

/**
 * Raw readings (one item per device and time, with a TTL) plus hourly roll-ups (min, max, sum, count
 * per data point); daily buckets are merged from the hours when read.
 *
 * Idempotent without conditional writes on the hot path: a raw item's key is device + time, so a
 * redelivered reading overwrites itself (batch-written, 25 a request), and a corrected one replaces it.
 * Roll-ups are never added to: each hour a write touched is recomputed from the raw readings stored (a
 * strongly consistent Query) and put only if no other recomputation put the hour since this one read
 * its revision (recomputeHour), so concurrent writers converge on the bucket of every raw write.
 * `write` does both; ingest writes only the raw items (`dynamoRawTelemetryStore`) and the table's
 * stream has the hours recomputed off its path.
 */
export const dynamoTelemetryStore: TelemetryStore = {
  async write(points) {
    const { failedDevices, unique } = await writeRawReadings(points);
    const hours = unique
      .filter((p) => !failedDevices.has(p.devId))
      .map((p) => ({ devId: p.devId, hour: p.time }));
    for (const devId of await recomputeHours(hours)) failedDevices.add(devId);
    return { failedDevices };
  },

  async readRaw(devId, from, to, limit) {
    const page = await readPage(seriesKey(devId, 'raw'), from, to, limit);
    return {
      more: page.more,
      items: page.items.map((item) => ({
        devId,
        time: Number(item.t),
        values: (item.v ?? {}) as Record<string, number>,
      })),
    };
  },

  async readBuckets(devId, resolution: RollupResolution, from, to, limit) {
    if (resolution === 'day') return readDays(devId, from, to, limit);
    const page = await readPage(seriesKey(devId, resolution), from, to, limit);
    return {
      more: page.more,
      items: page.items.map((item): Bucket => ({ time: Number(item.t), stats: statsOf(item) })),
    };
  },
};

/** The same store for ingest: `write` stores the raw readings; their roll-ups follow from the stream. */
export const dynamoRawTelemetryStore: TelemetryStore = {
  ...dynamoTelemetryStore,
  write: async (points) => ({ failedDevices: (await writeRawReadings(points)).failedDevices }),
};
