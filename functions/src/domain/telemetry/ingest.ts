import { telemetryMessageSchema } from '@argentum/events';
import { mapLimited } from '../../stores/concurrency';
import { getDevice, recordLatest } from '../../stores/devices';
import type { TelemetryPoint, TelemetryStore } from './telemetry';

export type IngestOutcome = 'stored' | 'invalid' | 'unknown-device';

/** A telemetry message as the IoT rule hands it over: the payload plus the topic's organization. */
export interface TelemetryDelivery {
  orgId: string;
  message: unknown;
}

/** Which organization each device belongs to, cached briefly: ingest sees the same devices again and again. */
const ownerCache = new Map<string, { orgId: string | undefined; until: number }>();
const OWNER_TTL_MS = 60_000;

async function ownerOf(devId: string): Promise<string | undefined> {
  const cached = ownerCache.get(devId);
  if (cached && cached.until > Date.now()) return cached.orgId;
  const device = await getDevice(devId);
  ownerCache.set(devId, { orgId: device?.orgID, until: Date.now() + OWNER_TTL_MS });
  return device?.orgID;
}

/**
 * Stores a batch of telemetry that devices published on `{orgId}/sensordata/{devId}`. A message for a
 * device that is not registered in that organization is dropped: a device cannot write into another
 * tenant. The whole batch is written together (raw points in batches, one roll-up update per device and
 * hour, one latest-values update per device), which is what makes high rates possible.
 */
export async function ingestTelemetry(
  store: TelemetryStore,
  deliveries: readonly TelemetryDelivery[],
  now = Date.now(),
): Promise<IngestOutcome[]> {
  const parsed = deliveries.map((d) => ({
    orgId: d.orgId,
    result: telemetryMessageSchema.safeParse(d.message),
  }));
  const devIds = [...new Set(parsed.flatMap((p) => (p.result.success ? [p.result.data.devID] : [])))];
  const owners = new Map(await mapLimited(devIds, 16, async (id) => [id, await ownerOf(id)] as const));

  const outcomes: IngestOutcome[] = [];
  const points: TelemetryPoint[] = [];
  for (const { orgId, result } of parsed) {
    if (!result.success) {
      outcomes.push('invalid');
      continue;
    }
    const { devID, values, time } = result.data;
    if (owners.get(devID) !== orgId) {
      outcomes.push('unknown-device');
      continue;
    }
    points.push({ devId: devID, time: time ?? now, values });
    outcomes.push('stored');
  }
  await store.write(points);

  const newest = new Map<string, TelemetryPoint>();
  for (const point of points) {
    const seen = newest.get(point.devId);
    if (!seen || seen.time <= point.time) newest.set(point.devId, point);
  }
  await mapLimited([...newest.values()], 16, (p) => recordLatest(p.devId, p.time, p.values));
  return outcomes;
}
