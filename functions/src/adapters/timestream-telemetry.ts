import {
  QueryCommand,
  type QueryCommandOutput,
  TimestreamQueryClient,
} from '@aws-sdk/client-timestream-query';
import {
  type _Record,
  RejectedRecordsException,
  TimestreamWriteClient,
  WriteRecordsCommand,
  type WriteRecordsCommandOutput,
} from '@aws-sdk/client-timestream-write';
import {
  type Bucket,
  type PointStats,
  type RollupResolution,
  type TelemetryPoint,
  type TelemetryStore,
} from '../domain/telemetry/telemetry';
import { mapLimited } from '../lib/concurrency';

/** The two Timestream clients, as far as the adapter uses them (tests give it a fake of the service). */
export interface TimestreamClients {
  write: { send(command: WriteRecordsCommand): Promise<WriteRecordsCommandOutput> };
  query: { send(command: QueryCommand): Promise<QueryCommandOutput> };
}

export const timestreamClients = (): TimestreamClients => {
  const write = new TimestreamWriteClient({});
  const query = new TimestreamQueryClient({});
  return {
    write: { send: (command) => write.send(command) },
    query: { send: (command) => query.send(command) },
  };
};

/** WriteRecords takes at most 100 records a request. */
const RECORDS_PER_WRITE = 100;

/** SQL string literal. */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Timestream TIMESTAMP values read `2026-01-05 10:17:00.000000000` (UTC). */
export const parseTimestamp = (value: string) => Date.parse(`${value.replace(' ', 'T').slice(0, 23)}Z`);

/**
 * Timestream for LiveAnalytics (only for accounts that still have it: closed to new customers on
 * 2025-06-20). One single-measure record per reading and data point: dimension `devId`, measure name the
 * data point, DOUBLE value, time in milliseconds. Roll-ups are computed by the query (bin()), so there
 * is nothing to keep consistent on write. Writing the same record again is a no-op in Timestream (same
 * dimensions, time, measure and value), which makes a redelivered batch change nothing.
 */
export function timestreamTelemetryStore(
  clients: TimestreamClients,
  target: { database: string; table: string },
): TelemetryStore {
  const from = `"${target.database}"."${target.table}"`;

  async function* rows(sql: string) {
    let nextToken: string | undefined;
    do {
      const page = await clients.query.send(new QueryCommand({ QueryString: sql, NextToken: nextToken }));
      const names = (page.ColumnInfo ?? []).map((c) => c.Name ?? '');
      for (const row of page.Rows ?? []) {
        const record: Record<string, string | undefined> = {};
        (row.Data ?? []).forEach((datum, i) => {
          record[names[i] ?? String(i)] = datum.NullValue ? undefined : datum.ScalarValue;
        });
        yield record;
      }
      nextToken = page.NextToken;
    } while (nextToken);
  }

  const where = (devId: string, start: number, end: number) =>
    `devId = ${literal(devId)} AND time BETWEEN from_milliseconds(${Math.floor(start)}) AND from_milliseconds(${Math.floor(end)})`;

  return {
    async write(points) {
      const failedDevices = new Set<string>();
      const records: { devId: string; record: _Record }[] = points.flatMap((p) =>
        Object.entries(p.values).map(([dp, value]) => ({
          devId: p.devId,
          record: {
            Dimensions: [{ Name: 'devId', Value: p.devId }],
            MeasureName: dp,
            MeasureValue: String(value),
            MeasureValueType: 'DOUBLE',
            Time: String(p.time),
            TimeUnit: 'MILLISECONDS',
          },
        })),
      );
      const batches: (typeof records)[] = [];
      for (let i = 0; i < records.length; i += RECORDS_PER_WRITE)
        batches.push(records.slice(i, i + RECORDS_PER_WRITE));
      await mapLimited(batches, 8, async (batch) => {
        try {
          await clients.write.send(
            new WriteRecordsCommand({
              DatabaseName: target.database,
              TableName: target.table,
              Records: batch.map((r) => r.record),
            }),
          );
        } catch (error) {
          if (error instanceof RejectedRecordsException) {
            // A record already there with another value (Timestream names its ExistingVersion) stays:
            // the first reading of a time wins. Anything else rejected fails its device, which comes again.
            for (const rejected of error.RejectedRecords ?? []) {
              if (rejected.ExistingVersion !== undefined) continue;
              const devId = batch[rejected.RecordIndex ?? -1]?.devId;
              if (devId) failedDevices.add(devId);
            }
            return;
          }
          for (const r of batch) failedDevices.add(r.devId);
        }
      });
      return { failedDevices };
    },

    async readRaw(devId, start, end, limit) {
      const byTime = new Map<number, TelemetryPoint>();
      let more = false;
      for await (const row of rows(
        `SELECT time, measure_name, measure_value::double AS value FROM ${from} WHERE ${where(devId, start, end)} ORDER BY time ASC`,
      )) {
        const time = parseTimestamp(row.time ?? '');
        let point = byTime.get(time);
        if (!point) {
          if (byTime.size >= limit) {
            more = true;
            break;
          }
          byTime.set(time, (point = { devId, time, values: {} }));
        }
        if (row.measure_name && row.value !== undefined) point.values[row.measure_name] = Number(row.value);
      }
      return { items: [...byTime.values()], more };
    },

    async readBuckets(devId, resolution: RollupResolution, start, end, limit) {
      const bin = resolution === 'hour' ? '1h' : '1d';
      const byTime = new Map<number, Bucket>();
      let more = false;
      for await (const row of rows(
        `SELECT bin(time, ${bin}) AS t, measure_name, min(measure_value::double) AS min_value, ` +
          `max(measure_value::double) AS max_value, sum(measure_value::double) AS sum_value, count(*) AS n ` +
          `FROM ${from} WHERE ${where(devId, start, end + (resolution === 'hour' ? 3_600_000 : 86_400_000) - 1)} ` +
          `GROUP BY bin(time, ${bin}), measure_name ORDER BY t ASC`,
      )) {
        const time = parseTimestamp(row.t ?? '');
        if (time > end) break;
        let bucket = byTime.get(time);
        if (!bucket) {
          if (byTime.size >= limit) {
            more = true;
            break;
          }
          byTime.set(time, (bucket = { time, stats: {} }));
        }
        if (!row.measure_name) continue;
        const stats: PointStats = {
          min: Number(row.min_value),
          max: Number(row.max_value),
          sum: Number(row.sum_value),
          count: Number(row.n),
        };
        bucket.stats[row.measure_name] = stats;
      }
      return { items: [...byTime.values()], more };
    },
  };
}
