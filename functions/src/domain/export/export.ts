import { randomUUID } from 'node:crypto';
import {
  EXPORT_FORMATS,
  EXPORT_KINDS,
  type ExportAnswer,
  type ExportFormat,
  type ExportKind,
  FILE_NOT_SUPPORTED_TEXT,
  hasRole,
  readingUnit,
  Role,
  roundedReading,
  type SensorDevicesAnswer,
  UNKNOWN_DEVICE_TEXT,
} from '@argentum/contracts';
import { DomainError, forbidden, notFound, validationError } from '../errors';
import { readArchivedRaw } from '../telemetry/archive';
import type { TelemetryPoint } from '../telemetry/telemetry';
import type { AuthUser } from '../users/user';
import { type Cell, isTimeCell, toCsv, toJson } from './cells';
import { EXPORT_PREFIX } from './keys';
import type { ExportDevice, ExportPorts } from './ports';

/** A device that does not exist or belongs to none of the caller's organizations: one answer. */
export const DEVICE_NOT_FOUND_TEXT = UNKNOWN_DEVICE_TEXT;
export const EXPORT_RANGE_TEXT = 'Please select a date range of at most 31 days.';
export const EXPORT_TOO_LARGE_TEXT = 'This export is too large: please select a shorter date range.';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const EXPORT_MAX_DAYS = 31;
/** More rows than this are refused: a file that large helps nobody and would not fit a Lambda's memory. */
export const EXPORT_MAX_ROWS = 400_000;
/** Files up to this size are answered inline; larger ones are written to storage and linked. */
export const EXPORT_INLINE_MAX_BYTES = 256 * 1024;
export const EXPORT_LINK_SECONDS = 15 * 60;

/** BIFF8 holds 65,536 rows a sheet: one for the header. */
const XLS_ROWS_PER_SHEET = 65_535;
/** Raw readings read per store call. */
const READ_PAGE = 5000;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xls: 'application/vnd.ms-excel',
};

/** The device, if the caller may read it; a foreign device gets the same answer as an unknown one. */
async function readableDevice(deps: Pick<ExportPorts, 'devices'>, user: AuthUser, devId: string) {
  const device = await deps.devices.get(devId);
  if (!device || !hasRole(user.orgRoles, device.orgID, Role.readOnly)) throw notFound(DEVICE_NOT_FOUND_TEXT);
  return device;
}

const view = (d: ExportDevice) => ({
  devID: d.devID,
  devName: d.devName,
  devType: d.devType,
  orgID: d.orgID,
  ...(d.floorID ? { floorID: d.floorID } : {}),
  dataPoints: d.dataPoints.map((p) => ({ dp: p.dp, ...(p.dn ? { dn: p.dn } : {}) })),
});

/**
 * What the sensor page needs to open from a link: the device, the other devices of its organization
 * (to compare with), and whether this organization may export every device's data. The configured
 * organization id itself never leaves the server.
 */
export async function readSensorDevices(
  deps: Pick<ExportPorts, 'devices' | 'exportSettings'>,
  user: AuthUser,
  devId: string,
): Promise<SensorDevicesAnswer> {
  const device = await readableDevice(deps, user, devId);
  const others = await deps.devices.ofOrganization(device.orgID);
  return {
    // Its clock's offset: the page tells when the times its graph shows are far from the wall clock.
    device: {
      ...view(device),
      ...(device.clockOffset !== undefined ? { clockOffset: device.clockOffset } : {}),
    },
    orgDevices: others
      .filter((d) => d.devID !== device.devID && d.dataPoints.length > 0)
      .sort((a, b) => a.devName.localeCompare(b.devName))
      .map(view),
    allDeviceExport: deps.exportSettings.allDeviceExportOrgId === device.orgID,
  };
}

export interface ExportRequest {
  kind: string;
  format: string;
  devID: string;
  cusDate: { startDate: string | number; endDate: string | number };
  dataPoints?: string[] | undefined;
  timeZone?: string | undefined;
}

function instant(value: string | number): number {
  const time = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(time)) throw validationError(EXPORT_RANGE_TEXT);
  return time;
}

function zoneOf(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return timeZone;
  } catch {
    throw validationError('Unknown time zone.');
  }
}

/** dd-mm-yyyy in the user's time zone (the specification's date display). */
export function dayLabel(time: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).formatToParts(time);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}-${part('month')}-${part('year')}`;
}

const KIND_LABELS: Record<ExportKind, string> = {
  average: 'AverageData',
  raw: 'RawData',
  all: 'AllDeviceData',
};

/** E.g. IEQOffice_RawData_01-11-2026_to_22-11-2026.csv: safe in every file system. */
export function exportFileName(
  subject: string,
  kind: ExportKind,
  from: number,
  to: number,
  timeZone: string,
  format: ExportFormat,
): string {
  const safeSubject = subject.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 64) || 'device';
  return `${safeSubject}_${KIND_LABELS[kind]}_${dayLabel(from, timeZone)}_to_${dayLabel(to, timeZone)}.${format}`;
}

const isKind = (kind: string): kind is ExportKind => (EXPORT_KINDS as readonly string[]).includes(kind);
export const UNKNOWN_EXPORT_KIND_TEXT = 'Please choose Average Data, Raw Data or All device Data.';
const isFormat = (format: string): format is ExportFormat =>
  (EXPORT_FORMATS as readonly string[]).includes(format);

interface Table {
  header: string[];
  rows: Cell[][];
}

/** A column: the point's name and key, with its unit as the screens show it (e.g. 'Pressure (pressure) [kPA]'). */
const columnName = (p: { dp: string; dn?: string }) => {
  const name = p.dn && p.dn !== p.dp ? `${p.dn} (${p.dp})` : p.dp;
  const unit = readingUnit(p.dp);
  return unit ? `${name} [${unit}]` : name;
};

/** A reading as the screens show it (kPa, their rounding); text values stay as they are. */
const shown = (dp: string, value: Cell | undefined): Cell =>
  typeof value === 'number' ? roundedReading(dp, value) : (value ?? null);

/**
 * Raw readings of devices as rows: time, device id, device name, one column per data point. The part
 * of the range older than the hot store keeps (`hotStoreDays`) comes from the archive, the rest from
 * the hot store.
 */
async function rawTable(
  deps: ExportPorts,
  devices: ExportDevice[],
  points: string[] | undefined,
  from: number,
  to: number,
  timeZone: string,
) {
  const columns = new Map<string, string>();
  for (const d of devices)
    for (const p of d.dataPoints) if (!points || points.includes(p.dp)) columns.set(p.dp, columnName(p));
  const dps = [...columns.keys()];
  const table: Table = { header: ['time', 'devID', 'device', ...columns.values()], rows: [] };
  const add = (device: ExportDevice, point: TelemetryPoint) => {
    table.rows.push([
      { time: point.time, timeZone },
      device.devID,
      device.devName,
      ...dps.map((dp) => shown(dp, point.values[dp])),
    ]);
    if (table.rows.length > EXPORT_MAX_ROWS) throw new DomainError('too-large', EXPORT_TOO_LARGE_TEXT);
  };
  const hotFrom = deps.clock.now().getTime() - deps.exportSettings.hotStoreDays * DAY_MS;
  // One organization per export: a device's, or the organization of 'All device Data'.
  const archived =
    from < hotFrom && devices[0]
      ? await readArchivedRaw(
          deps.archive,
          devices[0].orgID,
          devices.map((d) => d.devID),
          from,
          Math.min(to, hotFrom - 1),
        )
      : new Map<string, TelemetryPoint[]>();
  for (const device of devices) {
    for (const point of archived.get(device.devID) ?? []) add(device, point);
    if (to < hotFrom) continue;
    for (let start = Math.max(from, hotFrom); ;) {
      const page = await deps.telemetry.readRaw(device.devID, start, to, READ_PAGE);
      for (const point of page.items) add(device, point);
      const last = page.items.at(-1);
      if (!page.more || !last) break;
      start = last.time + 1;
    }
  }
  return { table, dps };
}

/** Hourly averages of each data point, from the raw readings. */
function averageTable(raw: Table, dps: string[], timeZone: string): Table {
  const buckets = new Map<string, { time: number; row: Cell[]; sums: number[]; counts: number[] }>();
  for (const row of raw.rows) {
    const at = row[0];
    const time = Math.floor((isTimeCell(at) ? at.time : 0) / HOUR_MS) * HOUR_MS;
    const key = `${String(row[1])}@${time}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = {
        time,
        row: [row[1] ?? null, row[2] ?? null],
        sums: dps.map(() => 0),
        counts: dps.map(() => 0),
      };
      buckets.set(key, bucket);
    }
    const { sums, counts } = bucket;
    dps.forEach((_, i) => {
      const value = row[3 + i];
      if (typeof value === 'number') {
        sums[i] = (sums[i] ?? 0) + value;
        counts[i] = (counts[i] ?? 0) + 1;
      }
    });
  }
  return {
    header: raw.header,
    rows: [...buckets.values()].map((b) => [
      { time: b.time, timeZone },
      ...b.row,
      ...b.sums.map((sum, i) => {
        const count = b.counts[i] ?? 0;
        return count > 0 ? shown(dps[i] ?? '', sum / count) : null;
      }),
    ]),
  };
}

async function encode(deps: ExportPorts, format: ExportFormat, table: Table): Promise<Uint8Array> {
  if (format === 'csv') return new TextEncoder().encode(toCsv(table.header, table.rows));
  if (format === 'json') return new TextEncoder().encode(toJson(table.header, table.rows));
  const sheets = [];
  for (let i = 0; i === 0 || i < table.rows.length; i += XLS_ROWS_PER_SHEET) {
    sheets.push({
      name: table.rows.length > XLS_ROWS_PER_SHEET ? `Data ${sheets.length + 1}` : 'Data',
      header: table.header,
      rows: table.rows.slice(i, i + XLS_ROWS_PER_SHEET),
    });
  }
  return deps.xls.write(sheets);
}

/**
 * Builds an export file of a device (Average Data, Raw Data) or of every device of its organization
 * (All device Data: only the configured organization). Small files are answered inline; larger ones
 * are written to storage and answered as a short-lived download link.
 */
export async function createExport(
  deps: ExportPorts,
  user: AuthUser,
  request: ExportRequest,
): Promise<ExportAnswer> {
  if (!isFormat(request.format)) throw validationError(FILE_NOT_SUPPORTED_TEXT);
  const format = request.format;
  if (!isKind(request.kind)) throw validationError(UNKNOWN_EXPORT_KIND_TEXT);
  const kind = request.kind;
  const from = instant(request.cusDate.startDate);
  const to = instant(request.cusDate.endDate);
  if (to < from || to - from > EXPORT_MAX_DAYS * DAY_MS) throw validationError(EXPORT_RANGE_TEXT);
  const timeZone = zoneOf(request.timeZone);

  const device = await readableDevice(deps, user, request.devID);
  let devices = [device];
  if (kind === 'all') {
    if (deps.exportSettings.allDeviceExportOrgId !== device.orgID) throw forbidden();
    devices = (await deps.devices.ofOrganization(device.orgID)).filter((d) => d.dataPoints.length > 0);
  }
  const { table: raw, dps } = await rawTable(
    deps,
    devices,
    kind === 'all' ? undefined : request.dataPoints,
    from,
    to,
    timeZone,
  );
  const table = kind === 'average' ? averageTable(raw, dps, timeZone) : raw;
  const bytes = await encode(deps, format, table);
  const fileName = exportFileName(
    kind === 'all' ? 'AllDevices' : device.devName,
    kind,
    from,
    to,
    timeZone,
    format,
  );
  const contentType = CONTENT_TYPES[format];
  const base = { fileName, format, contentType, size: bytes.byteLength, rows: table.rows.length };
  if (bytes.byteLength <= EXPORT_INLINE_MAX_BYTES) {
    return format === 'xls'
      ? { ...base, data: Buffer.from(bytes).toString('base64'), encoding: 'base64' }
      : { ...base, data: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), encoding: 'utf8' };
  }
  const key = `${EXPORT_PREFIX}${device.orgID}/${randomUUID()}/${fileName}`;
  await deps.files.write(key, bytes, contentType);
  const url = await deps.files.readUrl(key, {
    contentType,
    expiresInSeconds: EXPORT_LINK_SECONDS,
    contentDisposition: `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
  });
  return { ...base, url };
}
