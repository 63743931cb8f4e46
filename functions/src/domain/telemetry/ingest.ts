import type { Logger } from '../ports';
import { telemetryMessageSchema } from '@argentum/events';
import { mapLimited } from '../../lib/concurrency';
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
}

/** What ingest needs: where readings go, and the registered devices. */
export interface IngestPorts {
  telemetry: Pick<TelemetryStore, 'write'>;
  devices: {
    /** The organization a device is registered in; undefined for an unknown device. */
    ownerOf(devId: string): Promise<string | undefined>;
    /** Records a device's latest readings; older readings never overwrite newer ones. */
    recordLatest(devId: string, time: number, values: Record<string, number>): Promise<void>;
  };
  /** Told the readings that were stored, for the alarms they raise or resolve. */
  readings?: { stored(points: readonly TelemetryPoint[]): Promise<void> };
  /** Told each device's newest reading whose latest values were recorded, for browsers watching its floor. */
  live?: { recorded(newest: readonly TelemetryPoint[]): Promise<void> };
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
  for (const { delivery, result } of parsed) {
    points.push(undefined);
    if (!result.success) {
      const issue = result.error.issues[0];
      outcomes.push({
        kind: 'invalid',
        reason: `not a reading: ${issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid'}`,
      });
      continue;
    }
    const { devID, values, time } = result.data;
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
    points[points.length - 1] = { devId: devID, time: time ?? delivery.receivedAt, values };
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

  // Latest values and online state, from the newest reading of each device that was stored.
  const newest = new Map<string, TelemetryPoint>();
  for (const point of toStore) {
    if (failedDevices.has(point.devId)) continue;
    const seen = newest.get(point.devId);
    if (!seen || seen.time <= point.time) newest.set(point.devId, point);
  }
  const latestFailed = new Set<string>();
  await mapLimited([...newest.values()], 16, async (p) => {
    try {
      await deps.devices.recordLatest(p.devId, p.time, p.values);
    } catch {
      latestFailed.add(p.devId);
    }
  });

  if (deps.live) {
    try {
      await deps.live.recorded([...newest.values()].filter((p) => !latestFailed.has(p.devId)));
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
