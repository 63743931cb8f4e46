import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { DAY_MS, HOUR_MS, type TelemetryPoint, type TelemetryStore } from '../domain/telemetry/telemetry';
import { mapLimited } from '../lib/concurrency';

const RAW_RETENTION_DAYS = 35;
const BATCH = 25;

export const seriesKey = (devId: string, resolution: 'raw' | 'hour' | 'day') => `${devId}#${resolution}`;

interface Rollup {
  series: string;
  t: number;
  sums: Map<string, number>;
  counts: Map<string, number>;
}

/** Sums and counts per device, data point and hour/day bucket: averages come from these. */
function rollups(points: readonly TelemetryPoint[]): Rollup[] {
  const byKey = new Map<string, Rollup>();
  for (const point of points) {
    for (const [resolution, size] of [['hour', HOUR_MS] as const, ['day', DAY_MS] as const]) {
      const t = Math.floor(point.time / size) * size;
      const series = seriesKey(point.devId, resolution);
      const key = `${series}@${t}`;
      let rollup = byKey.get(key);
      if (!rollup) byKey.set(key, (rollup = { series, t, sums: new Map(), counts: new Map() }));
      for (const [dp, value] of Object.entries(point.values)) {
        rollup.sums.set(dp, (rollup.sums.get(dp) ?? 0) + value);
        rollup.counts.set(dp, (rollup.counts.get(dp) ?? 0) + 1);
      }
    }
  }
  return [...byKey.values()];
}

async function writeBatch(items: Record<string, unknown>[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
    if (attempt > 8) throw new Error(`Telemetry write left ${pending.length} items unprocessed`);
    const { UnprocessedItems } = await dynamo().send(
      new BatchWriteCommand({ RequestItems: { [config.telemetryTable]: pending } }),
    );
    pending = (UnprocessedItems?.[config.telemetryTable] ?? []).flatMap((r) =>
      r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item } }] : [],
    );
  }
}

/** Raw readings with a TTL, plus hourly and daily roll-ups updated atomically (ADD). */
export const dynamoTelemetryStore: TelemetryStore = {
  async write(points) {
    if (points.length === 0) return;
    const expiresAt = (time: number) => Math.floor(time / 1000) + RAW_RETENTION_DAYS * 24 * 3600;
    const raw = points.map((p) => ({
      series: seriesKey(p.devId, 'raw'),
      t: p.time,
      v: p.values,
      expiresAt: expiresAt(p.time),
    }));
    const batches: Record<string, unknown>[][] = [];
    for (let i = 0; i < raw.length; i += BATCH) batches.push(raw.slice(i, i + BATCH));
    await mapLimited(batches, 8, writeBatch);

    await mapLimited(rollups(points), 8, async (rollup) => {
      const names: Record<string, string> = {};
      const values: Record<string, number> = {};
      const adds: string[] = [];
      let i = 0;
      for (const [dp, sum] of rollup.sums) {
        names[`#s${i}`] = `sum_${dp}`;
        names[`#c${i}`] = `count_${dp}`;
        values[`:s${i}`] = sum;
        values[`:c${i}`] = rollup.counts.get(dp) ?? 0;
        adds.push(`#s${i} :s${i}`, `#c${i} :c${i}`);
        i++;
      }
      await dynamo().send(
        new UpdateCommand({
          TableName: config.telemetryTable,
          Key: { series: rollup.series, t: rollup.t },
          UpdateExpression: `ADD ${adds.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    });
  },
};
