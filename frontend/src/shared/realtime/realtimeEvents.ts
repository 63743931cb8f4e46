import {
  commandViewSchema,
  type LiveFloorMessage,
  liveFloorMessageSchema,
  notificationMessageSchema,
} from '@argentum/contracts/messaging';
import {
  type CommandView,
  type NotificationPush,
  notificationPushesOf,
  notificationPushOrgId,
} from '@argentum/contracts';

/** A message of the real-time channel the web app acts on, validated. */
export type RealtimeEvent =
  /** A floor's changed devices, and the grouping failures its devices told (`groupingFailures`). */
  | { kind: 'live'; orgId: string; floorId: string; message: LiveFloorMessage }
  | { kind: 'commandStatus'; orgId: string; view: CommandView }
  /** One push, or a burst sent together: applied in order. */
  | { kind: 'notification'; orgId: string; pushes: NotificationPush[] };

function json(payload: Uint8Array | string): unknown {
  try {
    return JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
  } catch {
    return undefined;
  }
}

/**
 * Reads a message by its topic (contracts/src/messaging/topics.ts) and checks it against its schema. Anything else
 * (unknown topic, not JSON, not what the topic carries, a live message naming another floor) answers
 * undefined and is dropped: the cache only ever holds what the platform's contracts describe. Devices'
 * own words (telemetry, confirmations) are not read here: what pages need of them the platform pushes
 * on the live floor and command status topics.
 */
export function parseRealtimeMessage(topic: string, payload: Uint8Array | string): RealtimeEvent | undefined {
  const [orgId, kind, third, ...rest] = topic.split('/');
  if (!orgId || !kind) return undefined;
  const body = json(payload);
  if (body === undefined) return undefined;
  if (kind === 'live' && third && rest.length === 0) {
    const parsed = liveFloorMessageSchema.safeParse(body);
    if (!parsed.success || parsed.data.floorId !== third) return undefined;
    return { kind: 'live', orgId, floorId: third, message: parsed.data };
  }
  if (kind === 'commandstatus' && third && rest.length === 0) {
    // A user's own outcomes: one of a command somebody else asked for is not what the topic carries.
    const parsed = commandViewSchema.safeParse(body);
    if (!parsed.success || parsed.data.requestedBy.userId !== third) return undefined;
    return { kind: 'commandStatus', orgId, view: parsed.data };
  }
  if (kind === 'notification' && third === undefined) {
    const parsed = notificationMessageSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const pushes = notificationPushesOf(parsed.data);
    if (pushes.some((push) => notificationPushOrgId(push) !== orgId)) return undefined;
    return { kind: 'notification', orgId, pushes };
  }
  return undefined;
}
