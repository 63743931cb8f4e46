import { telemetryMessageSchema } from '@argentum/events';
import { mapLimited } from '../../lib/concurrency';
import type { TelemetryPoint, TelemetryStore } from './telemetry';

export type IngestOutcome = 'stored' | 'invalid' | 'unknown-device';

/** A telemetry message as the IoT rule hands it over: the payload plus the topic's organization. */
export interface TelemetryDelivery {
  orgId: string;
  message: unknown;
}

/** What ingest needs: where readings go, and the registered devices. */
export interface IngestPorts {
  telemetry: TelemetryStore;
  devices: {
    /** The organization a device is registered in; undefined for an unknown device. */
    ownerOf(devId: string): Promise<string | undefined>;
    /** Records a device's latest readings; older readings never overwrite newer ones. */
    recordLatest(devId: string, time: number, values: Record<string, number>): Promise<void>;
  };
}

/** Which organization each device belongs to, cached briefly: ingest sees the same devices again and again. */
const ownerCache = new Map<string, { orgId: string | undefined; until: number }>();
const OWNER_TTL_MS = 60_000;

async function ownerOf(deps: IngestPorts, devId: string): Promise<string | undefined> {
  const cached = ownerCache.get(devId);
  if (cached && cached.until > Date.now()) return cached.orgId;
  const orgId = await deps.devices.ownerOf(devId);
  ownerCache.set(devId, { orgId, until: Date.now() + OWNER_TTL_MS });
  return orgId;
}

/**
 * Stores a batch of telemetry that devices published on `{orgId}/sensordata/{devId}`. A message for a
 * device that is not registered in that organization is dropped: a device cannot write into another
 * tenant. The whole batch is written together (raw points in batches, one roll-up update per device and
 * hour, one latest-values update per device), which is what makes high rates possible.
 */
export async function ingestTelemetry(
  deps: IngestPorts,
  deliveries: readonly TelemetryDelivery[],
  now = Date.now(),
): Promise<IngestOutcome[]> {
  const parsed = deliveries.map((d) => ({
    orgId: d.orgId,
    result: telemetryMessageSchema.safeParse(d.message),
  }));
  const devIds = [...new Set(parsed.flatMap((p) => (p.result.success ? [p.result.data.devID] : [])))];
  const owners = new Map(await mapLimited(devIds, 16, async (id) => [id, await ownerOf(deps, id)] as const));

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
  await deps.telemetry.write(points);

  const newest = new Map<string, TelemetryPoint>();
  for (const point of points) {
    const seen = newest.get(point.devId);
    if (!seen || seen.time <= point.time) newest.set(point.devId, point);
  }
  await mapLimited([...newest.values()], 16, (p) => deps.devices.recordLatest(p.devId, p.time, p.values));
  return outcomes;
}
