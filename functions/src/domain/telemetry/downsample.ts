import type { SeriesPoint } from '@argentum/contracts';
import type { Bucket, PointStats } from './telemetry';

/**
 * At most `max` raw points, keeping every spike: the points are cut into `max / 2` runs of consecutive
 * readings and each run keeps its lowest and its highest reading (in time order), so a one-minute
 * spike in a month of minutes is still drawn at its full height.
 */
export function downsampleMinMax(points: readonly SeriesPoint[], max: number): SeriesPoint[] {
  if (points.length <= max) return [...points];
  const runs = Math.max(1, Math.floor(max / 2));
  const size = Math.ceil(points.length / runs);
  const out: SeriesPoint[] = [];
  for (let start = 0; start < points.length; start += size) {
    let low = points[start] as SeriesPoint;
    let high = low;
    for (let i = start + 1; i < Math.min(points.length, start + size); i++) {
      const p = points[i] as SeriesPoint;
      if (p.y < low.y) low = p;
      if (p.y > high.y) high = p;
    }
    if (low === high) out.push(low);
    else if (low.x <= high.x) out.push(low, high);
    else out.push(high, low);
  }
  return out;
}

/**
 * One data point's roll-up buckets as series points (y the mean, with the bucket's min and max), at
 * most `max`: neighbouring buckets are merged (min of mins, max of maxes), so spikes survive as `max`.
 */
export function bucketSeries(buckets: readonly Bucket[], dp: string, max: number): SeriesPoint[] {
  const withDp = buckets.flatMap((b) => {
    const s = b.stats[dp];
    return s && s.count > 0 ? [{ time: b.time, s }] : [];
  });
  const group = Math.max(1, Math.ceil(withDp.length / max));
  const out: SeriesPoint[] = [];
  for (let i = 0; i < withDp.length; i += group) {
    const slice = withDp.slice(i, i + group);
    const merged: PointStats = { min: Infinity, max: -Infinity, sum: 0, count: 0 };
    for (const { s } of slice) {
      merged.min = Math.min(merged.min, s.min);
      merged.max = Math.max(merged.max, s.max);
      merged.sum += s.sum;
      merged.count += s.count;
    }
    out.push({ x: slice[0]?.time ?? 0, y: merged.sum / merged.count, min: merged.min, max: merged.max });
  }
  return out;
}

/** At most `max` items, evenly spread over the list (the first and the last kept). */
export function thin<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  const step = (items.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(items[Math.round(i * step)] as T);
  return out;
}
