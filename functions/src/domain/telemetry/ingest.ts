import { telemetryMessageSchema } from '@argentum/events';
import { getDevice, recordLatest } from '../../stores/devices';
import type { TelemetryPoint, TelemetryStore } from './telemetry';

export type IngestOutcome = 'stored' | 'invalid' | 'unknown-device';

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
 * Stores telemetry a device published on `{orgId}/sensordata/{devId}`. A message for a device that
 * is not registered in that organization is dropped: a device cannot write into another tenant.
 */
export async function ingestTelemetry(
  store: TelemetryStore,
  orgId: string,
  message: unknown,
  now = Date.now(),
): Promise<IngestOutcome> {
  const parsed = telemetryMessageSchema.safeParse(message);
  if (!parsed.success) return 'invalid';
  const { devID, values, time } = parsed.data;
  if ((await ownerOf(devID)) !== orgId) return 'unknown-device';
  const point: TelemetryPoint = { devId: devID, time: time ?? now, values };
  await store.write([point]);
  await recordLatest(devID, point.time, values);
  return 'stored';
}
