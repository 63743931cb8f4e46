import {
  type AllDeviceDataAnswer,
  type ComfortGraphAnswer,
  comfortGraphSecondParam,
  DATE_RANGE_ORDER_TEXT,
  dateRangeTooLongText,
  type DeviceRangeAnswer,
  EXPORT_PAGE_ROWS,
  hasRole,
  HOURLY_MAX_SPAN_DAYS,
  INVALID_DATE_TEXT,
  LATEST_DATE_MS,
  latestTimeOf,
  MAX_DATE_RANGE_DAYS,
  MAX_POINTS_PER_SERIES,
  MOTION_AVERAGE_MAX_DAYS,
  MOTION_DATA_POINT,
  type MotionSensorAnswer,
  type OrgRoles,
  RAW_MAX_SPAN_DAYS,
  RAW_READ_LIMIT,
  type SeriesPoint,
  UNKNOWN_DEVICE_TEXT,
} from '@argentum/contracts';
import { notFound, validationError } from '../errors';
import { bucketSeries, downsampleMinMax, thin } from './downsample';
import {
  type Bucket,
  bucketStart,
  DAY_MS,
  type RollupResolution,
  type TelemetryPoint,
  type TelemetryStore,
} from './telemetry';

/** A registered device as the data queries need it. */
export interface DeviceView {
  devID: string;
  orgID: string;
  devType: number;
  /** Latest value per data point, the time of each, and of the newest reading (epoch ms). */
  latest?: Record<string, number> | undefined;
  latestAt?: Record<string, number> | undefined;
  lastSeen?: number | undefined;
}

/** What the data queries need: the readings, and the registered devices (for scope and latest values). */
export interface DataQueryPorts {
  telemetry: Pick<TelemetryStore, 'readRaw' | 'readBuckets'>;
  devices: { get(devId: string): Promise<DeviceView | undefined> };
}

export interface Caller {
  orgRoles: OrgRoles;
}

export interface DateRangeInput {
  startDate: string | number;
  endDate: string | number;
}

/**
 * Epoch milliseconds from an ISO 8601 text or an epoch number (seconds when it is below 10^11), when
 * it is a date from 1970 to 9999: beyond, a number names no date (and could not be stored or shown).
 */
function toEpoch(value: string | number): number | undefined {
  const numeric =
    typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  const ms = Number.isFinite(numeric)
    ? numeric < 1e11
      ? Math.round(numeric * 1000)
      : Math.round(numeric)
    : typeof value === 'string'
      ? Date.parse(value)
      : NaN;
  return Number.isFinite(ms) && ms >= 0 && ms <= LATEST_DATE_MS ? ms : undefined;
}

/** The range of a date picker (cusDate / dateRange), checked: both dates, in order, at most 366 days. */
export function parseDateRange(input: DateRangeInput): { from: number; to: number } {
  const from = toEpoch(input.startDate);
  const to = toEpoch(input.endDate);
  if (from === undefined || to === undefined) throw validationError(INVALID_DATE_TEXT);
  if (to < from) throw validationError(DATE_RANGE_ORDER_TEXT);
  if (to - from > MAX_DATE_RANGE_DAYS * DAY_MS)
    throw validationError(dateRangeTooLongText(MAX_DATE_RANGE_DAYS));
  return { from, to };
}

/**
 * The device if it is registered in one of the caller's organizations (role 0 or more there) and, when
 * the request names an organization, in that one. A foreign device gets the unknown device's answer.
 */
export async function deviceInScope(
  deps: Pick<DataQueryPorts, 'devices'>,
  caller: Caller,
  devId: string,
  orgId?: string,
): Promise<DeviceView> {
  const device = await deps.devices.get(devId);
  if (
    !device ||
    (orgId !== undefined && orgId !== device.orgID) ||
    !hasRole(caller.orgRoles, device.orgID, 0)
  )
    throw notFound(UNKNOWN_DEVICE_TEXT);
  return device;
}

/** The resolution a range reads by its span (contracts: RAW_MAX_SPAN_DAYS, HOURLY_MAX_SPAN_DAYS). */
export function resolutionFor(from: number, to: number): 'raw' | RollupResolution {
  const span = to - from;
  if (span <= RAW_MAX_SPAN_DAYS * DAY_MS) return 'raw';
  return span <= HOURLY_MAX_SPAN_DAYS * DAY_MS ? 'hour' : 'day';
}

type Readings =
  { resolution: 'raw'; points: TelemetryPoint[] } | { resolution: RollupResolution; buckets: Bucket[] };

/** Every bucket of a device in the range (at most a range's worth: 366 days or 1,440 hours). */
async function allBuckets(
  deps: DataQueryPorts,
  devId: string,
  resolution: RollupResolution,
  from: number,
  to: number,
) {
  const page = await deps.telemetry.readBuckets(devId, resolution, bucketStart(from, resolution), to, 10_000);
  return page.items;
}

/** A device's readings in the range at the resolution its span calls for (raw falls back to hours when too many). */
async function readings(deps: DataQueryPorts, devId: string, from: number, to: number): Promise<Readings> {
  const resolution = resolutionFor(from, to);
  if (resolution === 'raw') {
    const page = await deps.telemetry.readRaw(devId, from, to, RAW_READ_LIMIT);
    if (!page.more) return { resolution, points: page.items };
    return { resolution: 'hour', buckets: await allBuckets(deps, devId, 'hour', from, to) };
  }
  return { resolution, buckets: await allBuckets(deps, devId, resolution, from, to) };
}

function series(data: Readings, dp: string): SeriesPoint[] {
  if (data.resolution === 'raw') {
    const points = data.points.flatMap((p) => {
      const y = p.values[dp];
      return typeof y === 'number' ? [{ x: p.time, y }] : [];
    });
    return downsampleMinMax(points, MAX_POINTS_PER_SERIES);
  }
  return bucketSeries(data.buckets, dp, MAX_POINTS_PER_SERIES);
}

/** getDeviceInfoDateRange: one data point of a device over the range, and its latest value. */
export async function deviceRange(
  deps: DataQueryPorts,
  caller: Caller,
  input: { devID: string; sensorDataPoint: string; cusDate: DateRangeInput; orgId?: string },
): Promise<DeviceRangeAnswer> {
  const { from, to } = parseDateRange(input.cusDate);
  const device = await deviceInScope(deps, caller, input.devID, input.orgId);
  const data = await readings(deps, device.devID, from, to);
  const latest = device.latest?.[input.sensorDataPoint];
  const latestAt = latestTimeOf(device, input.sensorDataPoint);
  return {
    deviceResponse: series(data, input.sensorDataPoint),
    latestVal:
      typeof latest === 'number' && typeof latestAt === 'number' ? { value: latest, time: latestAt } : null,
    resolution: data.resolution,
  };
}

/**
 * getComfortGraphInfo: the second data point (`param2`, comfortGraphSecondParam) against the first, one
 * {x: first, y: second} pair per reading (raw) or per bucket's means (roll-ups), at most 1,000 pairs.
 */
export async function comfortGraph(
  deps: DataQueryPorts,
  caller: Caller,
  input: { device: string; param: string; cusDate: DateRangeInput; orgId?: string },
): Promise<ComfortGraphAnswer> {
  const { from, to } = parseDateRange(input.cusDate);
  const device = await deviceInScope(deps, caller, input.device, input.orgId);
  const param2 = comfortGraphSecondParam(input.param);
  const data = await readings(deps, device.devID, from, to);
  const pairs =
    data.resolution === 'raw'
      ? data.points.flatMap((p) => {
          const x = p.values[input.param];
          const y = p.values[param2];
          return typeof x === 'number' && typeof y === 'number' ? [{ x, y }] : [];
        })
      : data.buckets.flatMap((b) => {
          const x = b.stats[input.param];
          const y = b.stats[param2];
          return x && y && x.count > 0 && y.count > 0 ? [{ x: x.sum / x.count, y: y.sum / y.count }] : [];
        });
  return { param2, responseData: thin(pairs, MAX_POINTS_PER_SERIES) };
}

const dayText = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * getMotionSensorData: occupancy (mean of mState, 1 occupied / 0 not) per sensor per UTC day, and over
 * the range, for at most the last 7 days of the range (the days ending with the range's end).
 */
export async function motionSummary(
  deps: DataQueryPorts,
  caller: Caller,
  input: { deviceIds: string[]; dateRange: DateRangeInput; orgId?: string },
): Promise<MotionSensorAnswer> {
  const range = parseDateRange(input.dateRange);
  const to = range.to;
  const from = Math.max(range.from, bucketStart(to, 'day') - (MOTION_AVERAGE_MAX_DAYS - 1) * DAY_MS);
  const ids = [...new Set(input.deviceIds)];
  const devices = await Promise.all(ids.map((id) => deviceInScope(deps, caller, id, input.orgId)));
  const perDevice = await Promise.all(
    devices.map(async (device) => {
      const buckets = await allBuckets(deps, device.devID, 'day', from, to);
      const days = buckets.flatMap((b) => {
        const s = b.stats[MOTION_DATA_POINT];
        return s && s.count > 0 ? [{ day: dayText(b.time), occupied: s.sum / s.count, s }] : [];
      });
      const sum = days.reduce((n, d) => n + d.s.sum, 0);
      const count = days.reduce((n, d) => n + d.s.count, 0);
      return {
        devID: device.devID,
        days: days.map(({ day, occupied }) => ({ day, occupied })),
        utilization: count > 0 ? sum / count : 0,
        measured: count > 0,
      };
    }),
  );
  const measured = perDevice.filter((d) => d.measured);
  const dayCount = new Set(perDevice.flatMap((d) => d.days.map((x) => x.day))).size;
  return {
    deviceResponse: perDevice.map(({ devID, days }) => ({ devID, days })),
    utilizationResponse: perDevice.map(({ devID, utilization }) => ({ devID, utilization })),
    avgQuerySum: {
      avg: measured.length > 0 ? measured.reduce((n, d) => n + d.utilization, 0) / measured.length : 0,
      dayCount,
    },
  };
}

interface ExportCursor {
  /** Index of the device in the request. */
  d: number;
  /** Continue at this time. */
  t: number;
}

const encodeCursor = (c: ExportCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
/**
 * A cursor this export could have answered: a device of the request (or just past the last), and a
 * time from the export's first row to one past its range (`last`), where the next page starts.
 */
function decodeCursor(text: string, bounds: { devices: number; first: number; last: number }): ExportCursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ExportCursor>;
    const { d, t } = c;
    if (
      Number.isSafeInteger(d) &&
      Number.isSafeInteger(t) &&
      (d as number) >= 0 &&
      (d as number) <= bounds.devices &&
      (t as number) >= bounds.first &&
      (t as number) <= bounds.last + 1
    ) {
      return { d: d as number, t: t as number };
    }
  } catch {
    // Answered below.
  }
  throw validationError('cursor is not a cursor of this export');
}

/**
 * getAllDeviceData (export): readings of several devices, raw (`fetchDatatype` 'raw') or averages
 * (otherwise: hourly up to 60 days, daily beyond), `EXPORT_PAGE_ROWS` rows a page; `nextCursor` continues.
 */
export async function allDeviceData(
  deps: DataQueryPorts,
  caller: Caller,
  input: {
    device: string | string[];
    param?: string | string[] | undefined;
    cusDate: DateRangeInput;
    fetchDatatype?: string | undefined;
    orgId?: string;
    cursor?: string | undefined;
  },
): Promise<AllDeviceDataAnswer> {
  const { from, to } = parseDateRange(input.cusDate);
  const ids = [...new Set(Array.isArray(input.device) ? input.device : [input.device])];
  const devices = await Promise.all(ids.map((id) => deviceInScope(deps, caller, id, input.orgId)));
  const wanted =
    input.param === undefined ? undefined : new Set(Array.isArray(input.param) ? input.param : [input.param]);
  const resolution: AllDeviceDataAnswer['resolution'] =
    input.fetchDatatype === 'raw' ? 'raw' : to - from <= HOURLY_MAX_SPAN_DAYS * DAY_MS ? 'hour' : 'day';
  const first = resolution === 'raw' ? from : bucketStart(from, resolution);
  const cursor = input.cursor
    ? decodeCursor(input.cursor, { devices: devices.length, first, last: to })
    : { d: 0, t: first };

  const rows: AllDeviceDataAnswer['rows'] = [];
  const params = new Set<string>();
  const pick = (values: Record<string, number>) => {
    const picked: Record<string, number> = {};
    for (const [dp, v] of Object.entries(values)) {
      if (wanted && !wanted.has(dp)) continue;
      picked[dp] = v;
      params.add(dp);
    }
    return picked;
  };
  let next: ExportCursor | null = null;
  for (
    let d = cursor.d, t = cursor.t;
    d < devices.length;
    d++, t = resolution === 'raw' ? from : bucketStart(from, resolution)
  ) {
    const devID = (devices[d] as DeviceView).devID;
    const room = EXPORT_PAGE_ROWS - rows.length;
    if (room <= 0) {
      next = { d, t };
      break;
    }
    if (resolution === 'raw') {
      const page = await deps.telemetry.readRaw(devID, t, to, room);
      for (const p of page.items) rows.push({ devID, time: p.time, values: pick(p.values) });
      if (page.more) {
        next = { d, t: (page.items.at(-1)?.time ?? t) + 1 };
        break;
      }
    } else {
      const page = await deps.telemetry.readBuckets(devID, resolution, t, to, room);
      for (const b of page.items) {
        const means: Record<string, number> = {};
        for (const [dp, s] of Object.entries(b.stats)) if (s.count > 0) means[dp] = s.sum / s.count;
        rows.push({ devID, time: b.time, values: pick(means) });
      }
      if (page.more) {
        next = { d, t: (page.items.at(-1)?.time ?? t) + 1 };
        break;
      }
    }
  }
  return {
    resolution,
    params: wanted ? [...wanted] : [...params].sort(),
    rows,
    nextCursor: next ? encodeCursor(next) : null,
  };
}
