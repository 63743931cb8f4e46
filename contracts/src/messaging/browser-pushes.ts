import * as z from 'zod/mini';
import '../schema-messages';
import { commandCalls, commandStatuses, type CommandView } from '../control';
import { type DevicePresence, presenceReasons } from '../devices';
import type { NotificationMessage, NotificationPush, NotificationView } from '../notifications';
import { Command, commandValueSchema, groupingKinds, messageDevId } from './device-protocol';

/**
 * What the platform publishes to browsers, validated on both ends: the publisher before sending (the
 * live floor and notification topics), the browser on receipt (every message; a malformed one is
 * dropped). Objects are not strict: a field added later does not make an older browser drop the message.
 */

/** Longest live-floor message the publisher sends (IoT Core's limit is 128 KB; a batch is split below). */
export const LIVE_FLOOR_MESSAGE_MAX_BYTES = 120 * 1024;

/** A device's presence as the server decided it (contracts/devices.ts `DevicePresence`). */
export const devicePresenceSchema = z.lazy(
  () =>
    z.object({
      online: z.boolean(),
      reason: z.enum(presenceReasons),
      since: z.number().check(z.int(), z.nonnegative()),
      at: z.number().check(z.int(), z.nonnegative()),
      lastSeen: z.optional(z.number().check(z.int(), z.positive())),
    }) satisfies z.ZodMiniType<DevicePresence>,
);

const portValue = z.lazy(() => z.union([z.literal(0), z.literal(1)]));

/**
 * A power node's word on its port values (commands 201 port one, 202 port two, 203 both): changed to
 * `val`, or failed. The browser words it with `deviceMessageText` ('Value changed to {val}', 'Value
 * change failed') and `deviceValueChangedText` ('<device>: Value changed to <value>').
 */
export const portReportSchema = z.lazy(() =>
  z.object({
    cmnd: z.union([
      z.literal(Command.portOneValue),
      z.literal(Command.portTwoValue),
      z.literal(Command.portBothValue),
    ]),
    outcome: z.enum(['success', 'fail']),
    val: z.optional(portValue),
    /** When the broker received it (epoch ms). */
    at: z.number().check(z.int(), z.nonnegative()),
  }),
);
export type PortReport = z.infer<typeof portReportSchema>;

/** A data point's name, as a live update keys its values. */
const pointName = z.string().check(z.minLength(1), z.maxLength(32));

/**
 * One device's change, as the floor view merges it into its cached devices: its newest reading
 * (ingest), its presence (online / offline, why, since when: every presence change), or a power
 * node's port values (its report on 201/202/203).
 */
export const liveDeviceUpdateSchema = z.lazy(() =>
  z.object({
    devID: messageDevId,
    /** The values of the newest reading, by data point. */
    latest: z.optional(z.record(pointName, z.number())),
    /** When each of those values was read (epoch ms): the points' own times (`latestTimeOf`). */
    latestAt: z.optional(z.record(pointName, z.number().check(z.int(), z.positive()))),
    /** When it was last read (epoch ms). */
    lastSeen: z.optional(z.number().check(z.int(), z.positive())),
    /** How far its clock runs ahead of the broker's as of that reading (ms; DeviceView `clockOffset`). */
    clockOffset: z.optional(z.number().check(z.int())),
    /** Sent with presence changes only: a reading alone does not decide presence. */
    online: z.optional(z.boolean()),
    presence: z.optional(devicePresenceSchema),
    /** The port values the power node reported (stored in its properties), merged into them. */
    ports: z.optional(z.object({ portOneValue: z.optional(portValue), portTwoValue: z.optional(portValue) })),
    /** The power node's word that changed them, or that they could not be changed. */
    portReport: z.optional(portReportSchema),
  }),
);
export type LiveDeviceUpdate = z.infer<typeof liveDeviceUpdateSchema>;

/**
 * A device of the floor failed to join or leave its group, on its own word (`groupingFailureOf`): the
 * floor's pages announce it once (edit mode's 'Failure while grouping devices.') and read the floor again.
 */
export const groupingFailureSchema = z.lazy(() =>
  z.object({
    devID: messageDevId,
    kind: z.enum(groupingKinds),
  }),
);
export type GroupingFailure = z.infer<typeof groupingFailureSchema>;

/**
 * `{orgId}/live/{floorId}`: the devices of the floor that changed (an ingest batch, a presence change),
 * and the grouping failures its devices told (at least one of the two). A message of grouping failures
 * alone has no updates: a page from before they existed drops it.
 */
export const liveFloorMessageSchema = z.lazy(() =>
  z
    .object({
      floorId: z.string().check(z.minLength(1), z.maxLength(64)),
      updates: z.array(liveDeviceUpdateSchema).check(z.maxLength(5000)),
      groupingFailures: z.optional(z.array(groupingFailureSchema).check(z.minLength(1), z.maxLength(100))),
    })
    .check(
      z.refine((message) => message.updates.length > 0 || message.groupingFailures !== undefined, {
        error: 'A live floor message carries updates or grouping failures.',
        path: ['updates'],
      }),
    ),
);
export type LiveFloorMessage = z.infer<typeof liveFloorMessageSchema>;

const commandReplySchema = z.lazy(() =>
  z.object({
    outcome: z.enum(['success', 'fail']),
    action: z.string(),
    val: z.optional(commandValueSchema),
    str: z.optional(z.string()),
    at: z.string(),
    message: z.optional(z.string()),
  }),
);

/** `{orgId}/commandstatus/{userId}`: a command's tracked state (contracts/control.ts `CommandView`). */
export const commandViewSchema = z.lazy(
  () =>
    z.object({
      commandId: z.string().check(z.minLength(1), z.maxLength(64)),
      devID: messageDevId,
      devName: z.string(),
      devType: z.number().check(z.int()),
      call: z.enum(commandCalls),
      cmnd: z.number().check(z.int()),
      val: z.optional(commandValueSchema),
      key: z.optional(z.string()),
      port: z.optional(z.union([z.number(), z.string()])),
      requestedBy: z.object({ userId: z.string(), userName: z.string() }),
      requestedAt: z.string(),
      sentAt: z.optional(z.string()),
      deadlineAt: z.string(),
      status: z.enum(commandStatuses),
      reply: z.optional(commandReplySchema),
      lateReply: z.optional(commandReplySchema),
      text: z.optional(z.string()),
    }) satisfies z.ZodMiniType<CommandView>,
);

/**
 * A notification as the bell shows it (contracts/notifications.ts `NotificationView`) without the
 * reader's `read`: what a raise pushes, and what a listing answers with `read` added (answers.ts).
 */
export const notificationSchema = z.lazy(
  () =>
    z.object({
      _id: z.string().check(z.minLength(1)),
      type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      message: z.string(),
      createdAt: z.string(),
      properties: z.object({
        orgID: z.string(),
        floorID: z.optional(z.string()),
        buildID: z.optional(z.string()),
        devID: z.optional(z.string()),
      }),
      clearedAt: z.optional(z.string()),
    }) satisfies z.ZodMiniType<Omit<NotificationView, 'read' | 'userNotificationProp'>>,
);

/**
 * `{orgId}/notification`: a notification raised (`kind: 'notification'`), or an alarm's notification
 * resolved (`kind: 'notificationCleared'`), pushed to the organization's signed-in users. The publisher
 * checks it before sending (functions/src/adapters/notification-publisher.ts). A browser from before
 * the clearing existed drops a clearing (an unknown kind) rather than take it for a new notification.
 */
export const notificationPushSchema = z.lazy(
  () =>
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('notification'),
        notification: notificationSchema,
      }),
      z.object({
        kind: z.literal('notificationCleared'),
        _id: z.string().check(z.minLength(1)),
        orgID: z.string().check(z.minLength(1)),
        clearedAt: z.string().check(z.minLength(1)),
      }),
    ]) satisfies z.ZodMiniType<NotificationPush>,
);

/** Longest notification message the publisher sends (IoT Core's limit is 128 KB; a burst is split below). */
export const NOTIFICATION_MESSAGE_MAX_BYTES = 120 * 1024;

/**
 * A message on `{orgId}/notification`: one push, or a burst of them (`kind: 'notifications'`, at least
 * one, applied in order). The publisher sends one push alone, so a page from before batches existed
 * still reads it.
 */
export const notificationMessageSchema = z.lazy(
  () =>
    z.union([
      notificationPushSchema,
      z.object({
        kind: z.literal('notifications'),
        pushes: z.array(notificationPushSchema).check(z.minLength(1)),
      }),
    ]) satisfies z.ZodMiniType<NotificationMessage>,
);
