import { telemetryMessageSchema } from '@argentum/contracts/messaging';
import { DAY_MS, type TelemetryPoint } from './telemetry';

/**
 * The long-term archive of raw readings. Ingest hands every message it accepted, as the telemetry
 * rule's SELECT made it (`{...message, orgId, topicDevId, receivedAt}`), to the archive in one request
 * a batch; the archive keeps them as gzipped JSON lines under one prefix per organization and day (the
 * reading's own time, else when IoT Core received it: the same day the hot store files it under).
 * On AWS Amazon Data Firehose writes them (multi-record deaggregation, then dynamic partitioning with a
 * JQ query equal to `archivePartition`); locally its stand-in does (infra/local/firehose.ts).
 */
export const ARCHIVE_ROOT = 'readings/';

/** `readings/org={orgId}/day={yyyy-mm-dd}/`: also the Firehose prefix, with its partition-key placeholders. */
export const archiveDayPrefix = (orgId: string, day: string) => `${ARCHIVE_ROOT}org=${orgId}/day=${day}/`;

/** The UTC day of an instant, `yyyy-mm-dd`. */
export const archiveDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * Firehose's partition keys, as JQ 1.6 queries over a record: the same rule as `archivePartition`.
 * A record they cannot partition (no organization, no usable time) goes to Firehose's error prefix.
 */
export const ARCHIVE_PARTITION_KEYS = {
  orgId: '.orgId',
  day: '((if (.time | type) == "number" then .time else .receivedAt end) / 1000 | floor | strftime("%Y-%m-%d"))',
} as const;

/** The organization and day a record is filed under; undefined where Firehose would fail it too. */
export function archivePartition(
  record: Record<string, unknown>,
): { orgId: string; day: string } | undefined {
  const { orgId, time, receivedAt } = record;
  const instant = typeof time === 'number' ? time : receivedAt;
  if (typeof orgId !== 'string' || orgId === '' || typeof instant !== 'number') return undefined;
  const date = new Date(Math.floor(instant / 1000) * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  return { orgId, day: archiveDay(date.getTime()) };
}

/**
 * Where ingest sends what it accepted, as record lines (`{...message, orgId, topicDevId, receivedAt}`):
 * Firehose on AWS (adapters/firehose-archive.ts), its local stand-in on the local stack.
 */
export interface ReadingArchive {
  put(lines: readonly string[]): Promise<void>;
}

/** Where archived records are read from: the lines of every object of one organization's day. */
export interface TelemetryArchive {
  /** Every record line filed under the organization and day, in no particular order. */
  dayLines(orgId: string, day: string): AsyncIterable<string>;
}

/** The readings of one device in a record line, when it is one: parsed as ingest parses it. */
function readingOf(line: string, devIds: ReadonlySet<string>): TelemetryPoint | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const { orgId: _orgId, topicDevId, receivedAt, ...message } = record as Record<string, unknown>;
  const parsed = telemetryMessageSchema.safeParse(message);
  if (!parsed.success || !devIds.has(parsed.data.devID)) return undefined;
  // A device may only publish its own readings (ingest refuses the others; the archive keeps all it got).
  if (topicDevId !== undefined && topicDevId !== parsed.data.devID) return undefined;
  const time = parsed.data.time ?? (typeof receivedAt === 'number' ? receivedAt : undefined);
  if (time === undefined) return undefined;
  return { devId: parsed.data.devID, time, values: parsed.data.values };
}

/**
 * The archived raw readings of some devices of one organization with `from <= time <= to`, per device
 * oldest first. A reading delivered twice (at least once, as the rule delivers) is kept once, the
 * later copy winning as in the hot store. Each day is read once for all the devices.
 */
export async function readArchivedRaw(
  archive: TelemetryArchive,
  orgId: string,
  devIds: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, TelemetryPoint[]>> {
  const wanted = new Set(devIds);
  const found = new Map<string, Map<number, TelemetryPoint>>(devIds.map((id) => [id, new Map()]));
  for (let day = Math.floor(from / DAY_MS) * DAY_MS; day <= to; day += DAY_MS) {
    for await (const line of archive.dayLines(orgId, archiveDay(day))) {
      const point = readingOf(line, wanted);
      if (point && point.time >= from && point.time <= to) found.get(point.devId)?.set(point.time, point);
    }
  }
  return new Map(
    [...found].map(([devId, byTime]) => [devId, [...byTime.values()].sort((a, b) => a.time - b.time)]),
  );
}
