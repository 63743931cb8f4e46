/**
 * Notifications (specification: access, administration and notifications, sections 2-4, 7 and 9): the
 * answers of /api/notification and the real-time push, shared by the functions and the front end.
 */

/** 0 info, 1 warning, 2 error. */
export const NotificationType = { info: 0, warning: 1, error: 2 } as const;
export type NotificationTypeNumber = (typeof NotificationType)[keyof typeof NotificationType];

export const NOTIFICATION_PAGE_SIZE = 10;
/** After a delete, the list reloads when fewer than this many remain. */
export const NOTIFICATION_RELOAD_BELOW = 8;
export const NOTIFICATION_LIST_HEIGHT = 400;
export const ONLY_SHOW_UNREAD_TEXT = 'only show unread';
export const VIEW_DEVICE_TEXT = 'View Device';
export const NO_NOTIFICATIONS_TEXT = 'No notifications';

/**
 * A notification as one user sees it. `message` is HTML limited to a few inline tags (b, strong, i,
 * em, br, span): the server builds and sanitizes it, and the browser renders it without running
 * anything.
 */
export interface NotificationView {
  _id: string;
  type: NotificationTypeNumber;
  message: string;
  createdAt: string;
  properties: { orgID: string; floorID?: string; buildID?: string; devID?: string };
  /** Whether this user has read it. */
  read: boolean;
  /**
   * The same in the specification's form, keyed by user id: in a listed notification, the reader's own
   * entry only (others' read flags are theirs).
   */
  userNotificationProp?: Record<string, { read: boolean }>;
  /** For an alarm: when its condition ended (the alarm cleared itself). */
  clearedAt?: string;
}

/** getNotifications: a page, newest first. */
export interface NotificationPage {
  list: NotificationView[];
  /** Whether more notifications follow this page. */
  hasMore: boolean;
}

/** A notification raised, pushed on `{orgId}/notification` to the organization's signed-in users. */
export interface NotificationRaisedPush {
  kind: 'notification';
  notification: Omit<NotificationView, 'read' | 'userNotificationProp'>;
}

/**
 * An alarm's notification resolved (its condition ended), pushed on the same topic: a page that holds
 * it shows it resolved. Sent again when the clearing is redelivered, always with the `clearedAt` first
 * recorded, so applying it twice changes nothing.
 */
export interface NotificationClearedPush {
  kind: 'notificationCleared';
  /** The notification's id (`NotificationView._id`). */
  _id: string;
  orgID: string;
  clearedAt: string;
}

/** One push to the organization's signed-in users: a notification raised, or one resolved. */
export type NotificationPush = NotificationRaisedPush | NotificationClearedPush;

/**
 * Pushes made within moments of each other, sent as one message and applied in order. IoT Core
 * delivers at most 100 messages a second to a connection and discards the rest, so a burst (a
 * building's devices going offline together) is coalesced rather than sent one message a push.
 */
export interface NotificationPushBatch {
  kind: 'notifications';
  pushes: NotificationPush[];
}

/** A message on `{orgId}/notification`: one push, or several together. */
export type NotificationMessage = NotificationPush | NotificationPushBatch;

/** The pushes a message on `{orgId}/notification` carries, in order. */
export const notificationPushesOf = (message: NotificationMessage): NotificationPush[] =>
  message.kind === 'notifications' ? message.pushes : [message];

/** The organization a push is about (its topic must name the same). */
export const notificationPushOrgId = (push: NotificationPush): string =>
  push.kind === 'notification' ? push.notification.properties.orgID : push.orgID;
