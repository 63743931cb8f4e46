/**
 * Topic layout of the real-time channel. Every topic starts with the organization id, so that one
 * access rule ("topics under the user's organizations") guards browsers and devices alike.
 */
export const topics = {
  /** Device telemetry: `{orgId}/sensordata/{devId}`. */
  sensorData: (orgId: string, devId: string) => `${orgId}/sensordata/${devId}`,
  /** Commands to a device: `{orgId}/controldata/{devId}`. */
  control: (orgId: string, devId: string) => `${orgId}/controldata/${devId}`,
  /** Confirmations from devices. */
  controlSuccess: (orgId: string) => `${orgId}/controldata/success`,
  controlFail: (orgId: string) => `${orgId}/controldata/fail`,
  /** Notifications pushed to signed-in users of the organization. */
  notification: (orgId: string) => `${orgId}/notification`,
  /** Coalesced live updates for browsers watching a floor. */
  floorLive: (orgId: string, floorId: string) => `${orgId}/live/${floorId}`,
} as const;

/** MQTT filter the IoT rule (and its local runner) uses to route telemetry to ingest. */
export const telemetryFilter = '+/sensordata/+';

/** The organization id a topic belongs to, or undefined for a malformed topic. */
export function orgOfTopic(topic: string): string | undefined {
  const [orgId, kind] = topic.split('/');
  if (!orgId || !kind || orgId.includes('+') || orgId.includes('#')) return undefined;
  return orgId;
}
