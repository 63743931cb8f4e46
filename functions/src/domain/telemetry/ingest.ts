import type { Logger } from '../ports';
import { telemetryMessageSchema } from '@argentum/contracts/messaging';
import { mapLimited } from '../../lib/concurrency';
import type { ReadingArchive } from './archive';
import type { TelemetryPoint, TelemetryStore } from './telemetry';

/**
 * What became of one delivery:
 * - `stored`: written (or already there: a redelivery);
 * - `invalid`: not a reading; retrying cannot help, it goes to the dead letters with its reason;
 * - `unknown-device`: the device is not registered in the topic's organization (yet: it may have been
 *   registered a moment ago), so it comes again and goes to the dead letters after the last attempt;
 * - `failed`: storing failed; it comes again.
 */
export type IngestOutcome =
  | { kind: 'stored' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'unknown-device'; devId: string; reason: string }
  | { kind: 'failed'; reason: string };

/** A telemetry message as the IoT rule hands it over: the payload plus the topic's organization. */
export interface TelemetryDelivery {
  orgId: string;
  /** The device id of the topic it came on; a device may only publish its own readings. */
  topicDevId?: string;
  message: unknown;
  /** When IoT Core received it (the rule's timestamp()): the reading's time when the device sent none. */
  receivedAt: number;
  /**
   * The publishing connection's client id (the rule's clientid()): the device's own id for what it
   * published over MQTT, "n/a" for what came through the IoT data plane (a reading the platform made:
   * a vendor's, a command's confirmed value).
   */
  clientId?: string;
}

/**
 * How far a reading's own time may be from when the broker received it (the rule's `receivedAt`).
 * Ahead: 5 minutes, the clock skew AWS itself allows a signed request; a reading from further in the
 * future would pin the device's latest values and lastSeen until that time comes. Behind: 7 days, so a
 * device that buffered its readings through a long weekend without network still delivers them, well
 * inside the 35 days raw readings are kept; anything older (a clock reset to 1970) is not telemetry.
 */
export const READING_WINDOW = { aheadMs: 5 * 60_000, behindMs: 7 * 24 * 3_600_000 } as const;

const isoOf = (time: number) => {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : date.toISOString();
};

/** Why a reading's time is refused, or undefined when it is inside the window around its arrival. */
export function outsideReadingWindow(time: number, receivedAt: number): string | undefined {
  if (time >= receivedAt - READING_WINDOW.behindMs && time <= receivedAt + READING_WINDOW.aheadMs)
    return undefined;
  return (
    `reading time ${isoOf(time)} is outside the window around its arrival at ${isoOf(receivedAt)} ` +
    '(at most 7 days before, 5 minutes after)'
  );
}

/**
 * What a reading made a device's latest: the values it brought that were the newest of their points,
 * with their times (`latestAt`, the reading's), at the device's time (`time`, its newest reading's).
 */
export interface TakenReading extends TelemetryPoint {
  latestAt: Record<string, number>;
  /** The device's clock offset as the write left it (Device `clockOffset`). */
  clockOffset?: number;
}

/** What ingest needs: where readings go, and the registered devices. */
export interface IngestPorts {
  telemetry: Pick<TelemetryStore, 'write'>;
  devices: {
    /** The organization a device is registered in; undefined for an unknown device. */
    ownerOf(devId: string): Promise<string | undefined>;
    /**
     * Records a device's latest readings; a point's older reading never overwrites a newer one. Answers,
     * when the reading brought something: the organization the written device belongs to (which keeps
     * its owner known without another read), and what became its latest: the values the reading brought
     * that were the newest of their points, at the device's time. `clockOffset` (a device's own reading
     * only, `ownClockOffset`) is kept as the device's when the reading is its newest.
     */
    recordLatest(
      devId: string,
      time: number,
      values: Record<string, number>,
      clockOffset?: number,
    ): Promise<{ orgId: string; taken: Omit<TakenReading, 'devId'> } | undefined>;
  };
  /**
   * The long-term archive: told every accepted message as a record line, one request a batch (on AWS
   * one Firehose PutRecordBatch instead of an IoT rule action a message, docs/cost.md).
   */
  archive?: ReadingArchive;
  /** Told the readings that were stored, for the alarms they raise or resolve. */
  readings?: { stored(points: readonly TelemetryPoint[]): Promise<void> };
  /**
   * Told, of each device whose latest values a batch moved, what it took (its values that became the
   * latest, at the device's time), for browsers watching its floor and its presence.
   */
  live?: { recorded(taken: readonly TakenReading[]): Promise<void> };
  logger?: Logger;
}

/**
 * Which organization each device belongs to, cached: ingest sees the same devices again and again. Only
 * a known owner is kept for long; "unknown" is kept for a few seconds, so a device registered a moment
 * ago is accepted on the next delivery.
 */
const ownerCache = new Map<string, { orgId: string | undefined; until: number }>();
const OWNER_TTL_MS = 60_000;
const UNKNOWN_TTL_MS = 1_000;

async function ownerOf(deps: IngestPorts, devId: string, now: number): Promise<string | undefined> {
  const cached = ownerCache.get(devId);
  if (cached && cached.until > now) return cached.orgId;
  const orgId = await deps.devices.ownerOf(devId);
  ownerCache.set(devId, { orgId, until: now + (orgId ? OWNER_TTL_MS : UNKNOWN_TTL_MS) });
  return orgId;
}

/**
 * How far a device's clock runs ahead of the broker's (ms; negative: behind, or the reading took that
 * long to arrive), from a reading it published itself over MQTT (the client id is its id): the reading's
 * time less the broker's receipt of it. Undefined for a reading the platform published (a vendor's, a
 * command's confirmed value), which says nothing of the device's clock.
 */
export function ownClockOffset(delivery: TelemetryDelivery, devId: string, time: number): number | undefined {
  return delivery.clientId === devId ? time - delivery.receivedAt : undefined;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Stores a batch of telemetry that devices published on `{orgId}/sensordata/{devId}`, answering an
 * outcome per delivery (same order). A device cannot write into another tenant: a message for a device
 * not registered in the topic's organization is not stored. Readings are written together (raw items
 * in batches, one roll-up recomputation per device and bucket, one latest-values update per device):
 * that is what makes high rates possible. Writing is idempotent, so a redelivered batch changes nothing.
 */
export async function ingestTelemetry(
  deps: IngestPorts,
  deliveries: readonly TelemetryDelivery[],
  now = Date.now(),
): Promise<IngestOutcome[]> {
  const parsed = deliveries.map((d) => ({
    delivery: d,
    result: telemetryMessageSchema.safeParse(d.message),
  }));
  const devIds = [...new Set(parsed.flatMap((p) => (p.result.success ? [p.result.data.devID] : [])))];
  const owners = new Map<string, string | undefined | Error>(
    await mapLimited(devIds, 16, async (id) => {
      try {
        return [id, await ownerOf(deps, id, now)] as const;
      } catch (error) {
        return [id, error instanceof Error ? error : new Error(String(error))] as const;
      }
    }),
  );

  const outcomes: IngestOutcome[] = [];
  const points: (TelemetryPoint | undefined)[] = [];
  // Each of a device's own readings tells how far its clock runs from the broker's.
  const clockOffsets = new Map<TelemetryPoint, number>();
  const lines: (string | undefined)[] = [];
  for (const { delivery, result } of parsed) {
    points.push(undefined);
    lines.push(undefined);
    if (!result.success) {
      const issue = result.error.issues[0];
      outcomes.push({
        kind: 'invalid',
        reason: `not a reading: ${issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid'}`,
      });
      continue;
    }
    const { devID, values, time } = result.data;
    const late = time === undefined ? undefined : outsideReadingWindow(time, delivery.receivedAt);
    if (late) {
      outcomes.push({ kind: 'invalid', reason: late });
      continue;
    }
    if (delivery.topicDevId !== undefined && delivery.topicDevId !== devID) {
      outcomes.push({
        kind: 'invalid',
        reason: `device ${delivery.topicDevId} published a reading of device ${devID}`,
      });
      continue;
    }
    const owner = owners.get(devID);
    if (owner instanceof Error) {
      outcomes.push({ kind: 'failed', reason: `device lookup failed: ${owner.message}` });
      continue;
    }
    if (owner !== delivery.orgId) {
      outcomes.push({
        kind: 'unknown-device',
        devId: devID,
        reason: `device ${devID} is not registered in organization ${delivery.orgId}`,
      });
      continue;
    }
    const point = { devId: devID, time: time ?? delivery.receivedAt, values };
    points[points.length - 1] = point;
    const clockOffset = ownClockOffset(delivery, devID, point.time);
    if (clockOffset !== undefined) clockOffsets.set(point, clockOffset);
    // The record as the telemetry rule's SELECT made it: what the archive keeps.
    lines[lines.length - 1] = JSON.stringify({
      ...(delivery.message as object),
      orgId: delivery.orgId,
      topicDevId: delivery.topicDevId,
      receivedAt: delivery.receivedAt,
    });
    outcomes.push({ kind: 'stored' });
  }

  const toStore = points.filter((p): p is TelemetryPoint => p !== undefined);
  let failedDevices: ReadonlySet<string>;
  let storeError = 'storing failed';
  try {
    ({ failedDevices } = await deps.telemetry.write(toStore));
  } catch (error) {
    storeError = `storing failed: ${errorText(error)}`;
    failedDevices = new Set(toStore.map((p) => p.devId));
  }

  // The archive takes what was stored; if it cannot, the batch comes again (storing is idempotent, and
  // a line archived twice is read once).
  let archiveError: string | undefined;
  if (deps.archive) {
    try {
      await deps.archive.put(
        lines.filter((line, i): line is string => {
          const point = points[i];
          return line !== undefined && point !== undefined && !failedDevices.has(point.devId);
        }),
      );
    } catch (error) {
      archiveError = `archiving failed: ${errorText(error)}`;
    }
  }

  // Latest values and online state: each device's stored readings of the batch taken in time order, a
  // newer value of a point over an older one, at the newest reading's time. A reading can name some
  // points only (a command's confirmed value): two such of one batch both count. The device's clock
  // offset is its newest own reading's.
  const newest = new Map<string, TelemetryPoint & { clockOffset?: number }>();
  for (const point of [...toStore].sort((a, b) => a.time - b.time)) {
    if (failedDevices.has(point.devId)) continue;
    const seen = newest.get(point.devId);
    const clockOffset = clockOffsets.get(point) ?? seen?.clockOffset;
    newest.set(point.devId, {
      ...point,
      values: { ...seen?.values, ...point.values },
      ...(clockOffset !== undefined ? { clockOffset } : {}),
    });
  }
  // Only what became a device's latest goes live: an older value (a newer was there) or a reading of a
  // device gone meanwhile would take a watching page back in time.
  const latestFailed = new Set<string>();
  const taken = await mapLimited([...newest.values()], 16, async (p) => {
    try {
      const written = await deps.devices.recordLatest(p.devId, p.time, p.values, p.clockOffset);
      if (!written) return undefined;
      // The device as just written: its owner stays cached while it keeps reporting (no lookup a reading).
      ownerCache.set(p.devId, { orgId: written.orgId, until: now + OWNER_TTL_MS });
      return { devId: p.devId, ...written.taken };
    } catch {
      latestFailed.add(p.devId);
      return undefined;
    }
  });

  if (deps.live) {
    try {
      await deps.live.recorded(taken.filter((p): p is TakenReading => p !== undefined));
    } catch (error) {
      deps.logger?.log('warn', 'live floor updates not published', { error: errorText(error) });
    }
  }

  // Alarms follow the readings; one that fails to be evaluated is evaluated with the next reading.
  if (deps.readings) {
    try {
      await deps.readings.stored(toStore.filter((p) => !failedDevices.has(p.devId)));
    } catch (error) {
      deps.logger?.log('warn', 'alarms of stored readings not evaluated', { error: errorText(error) });
    }
  }

  return outcomes.map((outcome, i) => {
    const point = points[i];
    if (outcome.kind !== 'stored' || !point) return outcome;
    if (failedDevices.has(point.devId)) return { kind: 'failed', reason: storeError };
    if (latestFailed.has(point.devId)) return { kind: 'failed', reason: 'latest values not recorded' };
    if (archiveError) return { kind: 'failed', reason: archiveError };
    return outcome;
  });
}

/** How often the telemetry queue delivers a message before it gives up on it (CDK: the queue's redrive). */
export const TELEMETRY_MAX_RECEIVES = 5;

/** A message that cannot be stored, with why. */
export interface DeadLetter {
  messageId: string;
  body: string;
  reason: string;
}

/** Where messages that cannot be stored go: nothing is dropped silently. */
export interface DeadLetters {
  send(letters: readonly DeadLetter[]): Promise<void>;
}

/** One message of the telemetry queue, as the event source hands it over. */
export interface QueuedReading {
  /** The queue's message id: what a partial batch failure names. */
  id: string;
  /**
   * The JSON the IoT rule sent: the device's message plus `orgId`, `topicDevId`, `clientId` and
   * `receivedAt`.
   */
  body: string;
  /** How often the queue has delivered it (this delivery included). */
  receives: number;
  /** When the queue received it (epoch ms): the arrival time when the body carries none. */
  sentAt: number;
}

/** What became of a batch: the messages to deliver again, and the counts (CloudWatch metrics). */
export interface BatchResult {
  retry: string[];
  counts: Record<'Stored' | 'Invalid' | 'UnknownDevice' | 'Failed' | 'DeadLettered', number>;
}

/**
 * The rule's body: the device's message plus `orgId` (topic(1)), `topicDevId` (topic(3)), `clientId`
 * (clientid()) and `receivedAt` (timestamp()); undefined when it is not a JSON object with the topic's
 * organization and device.
 */
export function deliveryOf(record: QueuedReading, now: number): TelemetryDelivery | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { orgId, topicDevId, clientId, receivedAt, ...message } = body as Record<string, unknown>;
  if (typeof orgId !== 'string' || orgId === '') return undefined;
  if (typeof topicDevId !== 'string' || topicDevId === '') return undefined;
  return {
    orgId,
    topicDevId,
    message,
    ...(typeof clientId === 'string' ? { clientId } : {}),
    receivedAt:
      typeof receivedAt === 'number' && Number.isFinite(receivedAt)
        ? receivedAt
        : Number.isFinite(record.sentAt) && record.sentAt > 0
          ? record.sentAt
          : now,
  };
}

/**
 * Ingests a batch of the telemetry queue (at least once). Each message's fate is its own: stored (or
 * already stored: writing is idempotent), retried (storing failed, or the device is not registered
 * yet), or sent to the dead letters with its reason (not a reading, a value or time out of range, a
 * device still unknown at the last delivery). One bad message never holds back the others. If the dead
 * letters cannot be reached, those messages are retried too, and the queue's own redrive takes them
 * after the last attempt.
 */
export async function ingestBatch(
  deps: IngestPorts & { deadLetters: DeadLetters },
  records: readonly QueuedReading[],
  now = Date.now(),
): Promise<BatchResult> {
  const entries = records.map((record) => ({ record, delivery: deliveryOf(record, now) }));
  const valid = entries.filter(
    (e): e is { record: QueuedReading; delivery: TelemetryDelivery } => e.delivery !== undefined,
  );
  let outcomes: IngestOutcome[];
  try {
    outcomes = await ingestTelemetry(
      deps,
      valid.map((e) => e.delivery),
      now,
    );
  } catch (error) {
    const reason = `ingest failed: ${errorText(error)}`;
    outcomes = valid.map(() => ({ kind: 'failed', reason }));
  }
  const outcomeOf = new Map(valid.map((e, i) => [e.record, outcomes[i]]));

  const retry: string[] = [];
  const letters: DeadLetter[] = [];
  const counts = { Stored: 0, Invalid: 0, UnknownDevice: 0, Failed: 0, DeadLettered: 0 };
  for (const record of records) {
    const outcome: IngestOutcome = outcomeOf.get(record) ?? {
      kind: 'invalid',
      reason: 'not a JSON object with the topic organization',
    };
    const letter = (reason: string) => letters.push({ messageId: record.id, body: record.body, reason });
    switch (outcome.kind) {
      case 'stored':
        counts.Stored++;
        break;
      case 'invalid':
        counts.Invalid++;
        letter(outcome.reason);
        break;
      case 'unknown-device':
        counts.UnknownDevice++;
        deps.logger?.log('warn', 'telemetry from an unknown device', {
          messageId: record.id,
          devId: outcome.devId,
          receives: record.receives,
        });
        if (record.receives >= TELEMETRY_MAX_RECEIVES) letter(outcome.reason);
        else retry.push(record.id);
        break;
      case 'failed':
        counts.Failed++;
        deps.logger?.log('warn', 'telemetry not stored, will come again', {
          messageId: record.id,
          reason: outcome.reason,
          receives: record.receives,
        });
        retry.push(record.id);
        break;
    }
  }
  if (letters.length > 0) {
    try {
      await deps.deadLetters.send(letters);
      counts.DeadLettered = letters.length;
      for (const letter of letters)
        deps.logger?.log('warn', 'telemetry dead letter', {
          messageId: letter.messageId,
          reason: letter.reason,
        });
    } catch (error) {
      deps.logger?.log('error', 'telemetry dead letters not sent, will come again', {
        error: errorText(error),
        count: letters.length,
      });
      retry.push(...letters.map((l) => l.messageId));
    }
  }
  return { retry, counts };
}
