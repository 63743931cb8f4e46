import {
  CHART_AXIS_RANGES,
  CO2_COMFORT_GRAPH_MAX,
  COMFORT_ZONES,
  type DeviceRangeAnswer,
  EXPORT_FORMATS,
  type ExportFormat,
  displayReading,
  readingUnit,
} from '@argentum/contracts';
import { formatDate, formatDateTime, formatTime } from '../../../shared/format/date';

const DAY_MS = 24 * 3_600_000;

/** A day typed as dd-mm-yyyy (the display format), at local midnight; null when it is no real day. */
export function parseDate(text: string): Date | null {
  const match = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : null;
}

export interface DateRange {
  startDate: number;
  endDate: number;
}

/** The default range: today from midnight until now. */
export function todayRange(now = Date.now()): DateRange {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return { startDate: midnight.getTime(), endDate: now };
}

/** From the start of the first day to the end of the last (or now, when that is sooner). */
export function daysRange(first: Date, last: Date, now = Date.now()): DateRange {
  const start = new Date(first);
  start.setHours(0, 0, 0, 0);
  const end = new Date(last);
  end.setHours(23, 59, 59, 999);
  return { startDate: start.getTime(), endDate: Math.min(end.getTime(), Math.max(now, start.getTime())) };
}

/**
 * The chosen days as read at `now`: days that reach today run until now, so a page left open keeps
 * following the present; past days stay as chosen.
 */
export const rangeAt = (chosen: DateRange, now = Date.now()): DateRange =>
  daysRange(new Date(chosen.startDate), new Date(chosen.endDate), now);

/** Whether the chosen days reach today: what they show is still to come. */
export function reachesNow(chosen: DateRange, now = Date.now()): boolean {
  const end = new Date(chosen.endDate);
  end.setHours(23, 59, 59, 999);
  return end.getTime() > now;
}

/**
 * The range a link names (`?from=dd-mm-yyyy&to=dd-mm-yyyy`, as the picker shows it), so that a reload
 * or a shared link shows the same days; undefined when it names none, or no real range.
 */
export function linkedRange(from: string | null, to: string | null, now = Date.now()): DateRange | undefined {
  const first = from ? parseDate(from) : null;
  const last = to ? parseDate(to) : null;
  if (!first || !last || first > last || first.getTime() > now) return undefined;
  return daysRange(first, last, now);
}

/** The last `days` days including today. */
export function lastDays(days: number, now = Date.now()): DateRange {
  const first = new Date(now);
  first.setDate(first.getDate() - (days - 1));
  return daysRange(first, new Date(now), now);
}

/** The time axis: 'Time' (hh:mm ticks) when the range is under a day, else 'Date' (dd-mm-yyyy ticks). */
export function timeAxis(
  range: DateRange,
  ticks: readonly number[],
): { label: 'Time' | 'Date'; format: (time: number) => string } {
  if (range.endDate - range.startDate < DAY_MS) return { label: 'Time', format: formatTime };
  // Ticks less than a day apart (a range of two or three days) name their hour too.
  const [first, second] = ticks;
  const apart = first !== undefined && second !== undefined ? second - first : DAY_MS;
  return { label: 'Date', format: apart < DAY_MS ? formatDateTime : formatDate };
}

/** About `count` evenly spread tick times across the range, on whole hours or days where it helps. */
export function timeTicks(range: DateRange, count: number): number[] {
  const span = range.endDate - range.startDate;
  if (span <= 0) return [range.startDate];
  const steps = [
    15 * 60_000,
    30 * 60_000,
    3_600_000,
    2 * 3_600_000,
    3 * 3_600_000,
    6 * 3_600_000,
    12 * 3_600_000,
    DAY_MS,
    2 * DAY_MS,
    7 * DAY_MS,
    14 * DAY_MS,
  ];
  const step = steps.find((s) => span / s <= count) ?? Math.ceil(span / count / DAY_MS) * DAY_MS;
  const first = new Date(range.startDate);
  if (step >= DAY_MS) first.setHours(0, 0, 0, 0);
  else first.setMinutes(0, 0, 0);
  const ticks: number[] = [];
  for (let t = first.getTime(); t <= range.endDate; t += step) if (t >= range.startDate) ticks.push(t);
  return ticks;
}

/** Units per data point: the contracts' one table. */
export const unitOf = readingUnit;

/** A reading in the unit the page shows (pressure in kPa): the contracts' rule. */
export const displayValue = displayReading;

/** The y axis of a data point: the specified range, widened when readings fall outside it. */
export function valueAxis(
  dp: string,
  values: readonly number[],
): { min: number | 'auto'; max: number | 'auto' } {
  const range = CHART_AXIS_RANGES[dp] ?? (dp === 'mState' ? { min: 0, max: 1 } : undefined);
  if (!range) return { min: 'auto', max: 'auto' };
  let min = range.min;
  let max = range.max;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** A point of a drawn series; `y` null breaks the line there (no readings in between). */
export interface GraphPoint {
  x: number;
  y: number | null;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The least silence a graph shows as a gap, per resolution of the answer, and how many of the
 * series' usual spacings (its median) it must also pass: a device that reports every 10 minutes is
 * not broken at every report, and a downsampled series (a run's lowest and highest reading) not at
 * every run.
 */
const GAP_RULES: Record<DeviceRangeAnswer['resolution'], { least: number; spacings: number }> = {
  raw: { least: 30 * MINUTE_MS, spacings: 10 },
  hour: { least: 3 * HOUR_MS, spacings: 3 },
  day: { least: 3 * DAY_MS, spacings: 3 },
};

/**
 * A series as drawn: where the device sent nothing for far longer than it usually does (it was off,
 * or offline), the line stops and starts again after, instead of drawing a straight run of values
 * it never reported. Only measured quantities sampled over time (the data points with chart ranges:
 * temperature, humidity, CO2 and the rest); a state reported when it changes (occupancy, a lock, a
 * switch) holds its value between reports, and its line runs on.
 */
export function withGaps(
  points: readonly { x: number; y: number }[],
  dp: string,
  resolution: DeviceRangeAnswer['resolution'],
): GraphPoint[] {
  if (!(dp in CHART_AXIS_RANGES) || points.length < 3) return [...points];
  const spacings = points.slice(1).map((p, i) => p.x - (points[i]?.x ?? p.x));
  const sorted = [...spacings].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const rule = GAP_RULES[resolution];
  const gap = Math.max(rule.least, rule.spacings * median);
  const drawn: GraphPoint[] = [];
  points.forEach((point, i) => {
    const before = points[i - 1];
    if (before && point.x - before.x > gap) drawn.push({ x: (before.x + point.x) / 2, y: null });
    drawn.push(point);
  });
  return drawn;
}

/** The comfort graph's axis of a data point: CO2's comfort graph runs from 0 to 1000. */
export function comfortAxis(dp: string): { min: number; max: number } | undefined {
  if (dp === 'co2') return { min: 0, max: CO2_COMFORT_GRAPH_MAX };
  return CHART_AXIS_RANGES[dp];
}

export const inComfortZone = (dp: string, value: number): boolean => {
  const zone = COMFORT_ZONES[dp];
  return zone === undefined || (value >= zone.min && value <= zone.max);
};

export const isExportFormat = (format: string): format is ExportFormat =>
  (EXPORT_FORMATS as readonly string[]).includes(format);
