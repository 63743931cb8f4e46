import { createHash, randomBytes } from 'node:crypto';
import {
  hasRole,
  memberOrgIds,
  type NotificationPage,
  type NotificationRaisedPush,
  type NotificationTypeNumber,
  type NotificationView,
} from '@argentum/contracts';
import { notFound } from '../errors';
import type { AuthUser } from '../users/user';
import { sanitizeMessage } from './notification-html';
import type { InboxEntry, NotificationPorts, NotificationStore, StoredNotification } from './ports';

export const NOTIFICATION_NOT_FOUND = 'This notification does not exist (it may have been deleted).';

/**
 * Who receives a notification: the members of its organization at the time it is raised. A user who
 * joins later does not get the organization's earlier notifications: they are about episodes that
 * happened before the user could act on them, and an inbox that suddenly fills with old alarms buries
 * the current ones. (A user who leaves stops seeing the organization's notifications at once: reads
 * are filtered by the user's current organizations.)
 */

/**
 * A notification id that sorts by time; an alarm episode's is the same for the same time (a raise
 * redelivered), and the episode's claim (`claimEpisode`) makes one id of raises at other times.
 */
export function notificationId(time: number, episodeKey?: string): string {
  const stamp = time.toString(36).padStart(9, '0');
  const tail = episodeKey
    ? createHash('sha256').update(episodeKey).digest('hex').slice(0, 16)
    : randomBytes(8).toString('hex');
  return `${stamp}${tail}`;
}

export interface NewNotification {
  orgId: string;
  type: NotificationTypeNumber;
  /** HTML built with the `html` template (values escaped); sanitized again before it is stored. */
  message: string;
  properties?: StoredNotification['properties'];
  /** Names an alarm episode: a redelivered trigger of the same episode delivers nothing new. */
  episodeKey?: string;
  time: number;
}

/**
 * Raises a notification: stored once, put into the inbox of every current member of the
 * organization, pushed to its signed-in users. Idempotent per episode key: a raise of an episode
 * already raised, with another reading's time and words, delivers the episode's one notification.
 */
export async function raiseNotification(
  deps: NotificationPorts,
  input: NewNotification,
): Promise<{ notification: StoredNotification; outcome: 'new' | 'known' }> {
  const candidate: StoredNotification = {
    id: notificationId(input.time, input.episodeKey),
    orgId: input.orgId,
    type: input.type,
    message: sanitizeMessage(input.message),
    createdAt: new Date(input.time).toISOString(),
    properties: input.properties ?? {},
  };
  const notification = input.episodeKey
    ? await deps.notifications.claimEpisode(input.episodeKey, candidate)
    : candidate;
  const members = await currentMembers(deps, input.orgId);
  const outcome = await deps.notifications.deliver(notification, members);
  // A redelivery pushes again, as stored: browsers drop a notification they already hold (same _id),
  // and one resolved meanwhile (its trigger redelivered after the clearing) is pushed resolved.
  const pushed =
    outcome === 'known' ? ((await deps.notifications.get(notification.id)) ?? notification) : notification;
  await deps.publisher.publish(input.orgId, {
    kind: 'notification',
    notification: pushedView(pushed),
  });
  return { notification: pushed, outcome };
}

/**
 * Resolves an alarm's notification (its condition ended): recorded once, and pushed to the
 * organization's signed-in users, so a page that holds it shows it resolved without a reload. A
 * repeat (a redelivered trigger, a retry after the push failed) pushes again, with the time first
 * recorded: browsers apply it in place, so it changes nothing there. Nothing is pushed for an unknown
 * id. Answers whether this call recorded the end (the first: what alarm metrics count).
 */
export async function clearNotification(
  deps: Pick<NotificationPorts, 'notifications' | 'publisher'>,
  id: string,
  clearedAt: string,
): Promise<boolean> {
  const cleared = await deps.notifications.markCleared(id, clearedAt);
  const notification = cleared?.notification;
  if (!cleared || !notification?.clearedAt) return false;
  await deps.publisher.publish(notification.orgId, {
    kind: 'notificationCleared',
    _id: notification.id,
    orgID: notification.orgId,
    clearedAt: notification.clearedAt,
  });
  return cleared.recorded;
}

/** Members whose record still names the organization (the member list is only a lookup). */
async function currentMembers(deps: NotificationPorts, orgId: string): Promise<string[]> {
  const records = await deps.users.getMany(await deps.users.memberIds(orgId));
  return records.filter((u) => hasRole(u.orgRoles, orgId, 0)).map((u) => u.userId);
}

/** A notification as it is pushed to every member: no one's read flag. */
function pushedView(n: StoredNotification): NotificationRaisedPush['notification'] {
  return {
    _id: n.id,
    type: n.type,
    message: n.message,
    createdAt: n.createdAt,
    properties: { orgID: n.orgId, ...n.properties },
    ...(n.clearedAt ? { clearedAt: n.clearedAt } : {}),
  };
}

/** A notification as `reader` lists it: whether they have read it, also in the specification's form. */
function toView(n: StoredNotification, reader: { userId: string; read: boolean }): NotificationView {
  const { read } = reader;
  return { ...pushedView(n), read, userNotificationProp: { [reader.userId]: { read } } };
}

type ReadPorts = { notifications: NotificationStore };

/** getNotifications: the caller's notifications of their current organizations, newest first. */
export async function listNotifications(
  deps: ReadPorts,
  user: AuthUser,
  query: { skip: number; limit: number; unreadOnly: boolean },
): Promise<NotificationPage> {
  const { entries, hasMore } = await deps.notifications.page(user.userId, {
    orgIds: memberOrgIds(user.orgRoles),
    ...query,
  });
  return {
    list: entries.map((e: InboxEntry) => toView(e.notification, { userId: user.userId, read: e.read })),
    hasMore,
  };
}

export const unreadCount = (deps: ReadPorts, user: AuthUser) =>
  deps.notifications.unreadCount(user.userId, memberOrgIds(user.orgRoles));

export const markRead = (deps: ReadPorts, user: AuthUser, ids: readonly string[]) =>
  deps.notifications.markRead(user.userId, [...new Set(ids)]);

/**
 * Deletes a notification for the caller only; others keep theirs. One that is not in the caller's
 * inbox, or belongs to an organization the caller has left, answers 404 like an unknown id.
 */
export async function deleteNotification(deps: ReadPorts, user: AuthUser, id: string): Promise<void> {
  const entry = await deps.notifications.get(id);
  if (!entry || !hasRole(user.orgRoles, entry.orgId, 0)) throw notFound(NOTIFICATION_NOT_FOUND);
  const removed = await deps.notifications.remove(user.userId, id);
  if (!removed) throw notFound(NOTIFICATION_NOT_FOUND);
}
