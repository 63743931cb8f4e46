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
  /**
   * The platform's tracked outcome of a command (a `CommandView`, contracts/control.ts), published when
   * a device's confirmation settles it, for the user who asked for it: only the panel that sent a
   * command waits for its outcome, so no other page spends its 100 messages a second on it (a
   * 50-device setValueOnDevices is 50 outcomes). Outside `controldata/`, so it never reaches the
   * confirmation rule again and no device subscription matches it.
   */
  commandStatus: (orgId: string, userId: string) => `${orgId}/commandstatus/${userId}`,
  /** Notifications pushed to signed-in users of the organization. */
  notification: (orgId: string) => `${orgId}/notification`,
  /** Coalesced live updates for browsers watching a floor. */
  floorLive: (orgId: string, floorId: string) => `${orgId}/live/${floorId}`,
} as const;

/** MQTT filter the IoT rule (and its local runner) uses to route telemetry to ingest. */
export const telemetryFilter = '+/sensordata/+';

/**
 * Basic Ingest: a device publishes straight to an IoT rule on `$aws/rules/{ruleName}/{topic}`, without
 * the messaging charge. Only that rule receives it (no subscriber does), and the rule's SQL sees the
 * topic without the prefix (`topic(1)` is still the organization).
 */
export const basicIngestTopic = (ruleName: string, topic: string) => `$aws/rules/${ruleName}/${topic}`;

/** The topic a rule sees: a Basic Ingest topic without its `$aws/rules/{ruleName}/` prefix. */
export function ruleSeenTopic(topic: string): string {
  const match = /^\$aws\/rules\/[^/]+\/(.+)$/.exec(topic);
  return match?.[1] ?? topic;
}

/** The last level of a confirmation topic: the device's word on a command. */
export const confirmationOutcomes = ['success', 'fail'] as const;
export type ConfirmationOutcome = (typeof confirmationOutcomes)[number];

/**
 * MQTT filter of the confirmation rule (and its local runner): commands share the level, so the rule
 * keeps only `success` and `fail` (`confirmationTopic`).
 */
export const confirmationFilter = '+/controldata/+';

/** A confirmation topic's organization and outcome, or undefined for any other topic. */
export function confirmationTopic(
  topic: string,
): { orgId: string; outcome: ConfirmationOutcome } | undefined {
  const [orgId, kind, last, ...rest] = topic.split('/');
  if (rest.length > 0 || kind !== 'controldata' || !orgId || orgId.includes('+') || orgId.includes('#'))
    return undefined;
  return last === 'success' || last === 'fail' ? { orgId, outcome: last } : undefined;
}

/**
 * A browser's MQTT client id: `web-` and a UUID (lower case, as crypto.randomUUID makes it). The realtime
 * authorizer admits browsers under such ids only, and `iot:DeleteConnection` is granted on `client/web-*`
 * only, so a browser can never take over (or close) a device's connection, whose id is its thing name.
 */
export const BROWSER_CLIENT_ID_PATTERN = /^web-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isBrowserClientId = (clientId: string) => BROWSER_CLIENT_ID_PATTERN.test(clientId);
/** The prefix of browser client ids; no device id may start with it (in any case). */
export const BROWSER_CLIENT_ID_PREFIX = 'web-';

/**
 * Device ids that would name a confirmation topic instead of the device's command topic, or that
 * take the form of a browser's client id (reserved for browsers: a device connects under its id).
 */
export const isReservedDeviceId = (devId: string) =>
  (confirmationOutcomes as readonly string[]).includes(devId) ||
  /[+#/]/.test(devId) ||
  devId.toLowerCase().startsWith(BROWSER_CLIENT_ID_PREFIX);

/** The organization id a topic belongs to, or undefined for a malformed topic. */
export function orgOfTopic(topic: string): string | undefined {
  const [orgId, kind] = topic.split('/');
  if (!orgId || !kind || orgId.includes('+') || orgId.includes('#')) return undefined;
  return orgId;
}
