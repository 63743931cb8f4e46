/** One reading of a device: a value per data point at one time. */
export interface TelemetryPoint {
  devId: string;
  /** Epoch milliseconds. */
  time: number;
  values: Record<string, number>;
}

/** Minimum, maximum, sum and count of one data point's readings in one bucket. */
export interface PointStats {
  min: number;
  max: number;
  sum: number;
  count: number;
}

/** A roll-up bucket of one device: its start (epoch ms) and the statistics per data point. */
export interface Bucket {
  time: number;
  stats: Record<string, PointStats>;
}

export type RollupResolution = 'hour' | 'day';

/** What a write could not store: the devices whose readings must come again (the queue redelivers them). */
export interface WriteResult {
  failedDevices: ReadonlySet<string>;
}

/** A page of readings or buckets in time order; `more` when the limit cut it (continue after the last). */
export interface Page<T> {
  items: T[];
  more: boolean;
}

/**
 * Where telemetry is kept. DynamoDB by default; Timestream for accounts that have it.
 *
 * `write` is idempotent: writing the same readings again (a redelivered batch) changes nothing, the
 * roll-ups included. A reading is identified by device and time; a second reading with the same
 * device and time replaces the first in the raw series.
 */
export interface TelemetryStore {
  write(points: readonly TelemetryPoint[]): Promise<WriteResult>;
  /** Raw readings of a device with `from <= time <= to`, oldest first, at most `limit`. */
  readRaw(devId: string, from: number, to: number, limit: number): Promise<Page<TelemetryPoint>>;
  /** Roll-up buckets of a device starting in [from, to], oldest first, at most `limit`. */
  readBuckets(
    devId: string,
    resolution: RollupResolution,
    from: number,
    to: number,
    limit: number,
  ): Promise<Page<Bucket>>;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const bucketSize = (resolution: RollupResolution) => (resolution === 'hour' ? HOUR_MS : DAY_MS);
export const bucketStart = (time: number, resolution: RollupResolution) =>
  Math.floor(time / bucketSize(resolution)) * bucketSize(resolution);

/** Adds a value to a data point's statistics. */
export function addValue(stats: Record<string, PointStats>, dp: string, value: number): void {
  const s = stats[dp];
  if (!s) stats[dp] = { min: value, max: value, sum: value, count: 1 };
  else {
    if (value < s.min) s.min = value;
    if (value > s.max) s.max = value;
    s.sum += value;
    s.count += 1;
  }
}

/** Merges statistics of the same data points (e.g. hours into a day). */
export function mergeStats(into: Record<string, PointStats>, from: Record<string, PointStats>): void {
  for (const [dp, s] of Object.entries(from)) {
    const t = into[dp];
    if (!t) into[dp] = { ...s };
    else {
      t.min = Math.min(t.min, s.min);
      t.max = Math.max(t.max, s.max);
      t.sum += s.sum;
      t.count += s.count;
    }
  }
}
