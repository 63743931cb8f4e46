import type { NotificationPush, NotificationTypeNumber } from '@argentum/contracts';
import type { UserStore } from '../users/ports';

/** A notification as stored once for its organization; each recipient's inbox refers to it. */
export interface StoredNotification {
  id: string;
  orgId: string;
  type: NotificationTypeNumber;
  /** Sanitized HTML (see notification-html.ts). */
  message: string;
  createdAt: string;
  properties: { floorID?: string; buildID?: string; devID?: string };
  clearedAt?: string;
}

export interface InboxEntry {
  notification: StoredNotification;
  read: boolean;
}

/** Notifications and each user's inbox of them (the DynamoDB adapter is stores/notifications.ts). */
export interface NotificationStore {
  /**
   * Stores the notification and puts it into each user's inbox, unread. Idempotent: a notification
   * already stored (same id) is not stored again, and an inbox that already holds it keeps its flags
   * (a redelivered alarm does not come back unread, nor back after a delete).
   * Answers whether the notification was new.
   */
  deliver(notification: StoredNotification, userIds: readonly string[]): Promise<'new' | 'known'>;
  /** A page of the user's inbox, newest first, only notifications of `orgIds`. */
  page(
    userId: string,
    query: { orgIds: readonly string[]; skip: number; limit: number; unreadOnly: boolean },
  ): Promise<{ entries: InboxEntry[]; hasMore: boolean }>;
  /** How many of the user's inbox entries of `orgIds` are unread. */
  unreadCount(userId: string, orgIds: readonly string[]): Promise<number>;
  /** Marks these entries of the user's inbox read; ids not in the inbox are ignored. */
  markRead(userId: string, ids: readonly string[]): Promise<void>;
  /** Removes a notification from the user's inbox only; undefined when it was not there. */
  remove(userId: string, id: string): Promise<StoredNotification | undefined>;
  /**
   * The notification of an alarm episode: `candidate` when none was claimed for `episodeKey` yet, else
   * the one that was (its id and time, with the candidate's other fields). Every raise of one episode,
   * whichever reading brought it and whichever instance took that reading, is one notification.
   */
  claimEpisode(episodeKey: string, candidate: StoredNotification): Promise<StoredNotification>;
  /** The notification, as stored once for everybody. */
  get(id: string): Promise<StoredNotification | undefined>;
  /**
   * Records that an alarm's condition ended, once: a second clearing changes nothing. Answers the
   * notification as stored afterwards (its `clearedAt` the first one recorded) and whether this call
   * recorded it, undefined when there is no such notification.
   */
  markCleared(
    id: string,
    clearedAt: string,
  ): Promise<{ notification: StoredNotification; recorded: boolean } | undefined>;
}

/** Pushes a notification to the signed-in users of its organization (the real-time channel). */
export interface NotificationPublisher {
  publish(orgId: string, push: NotificationPush): Promise<void>;
}

/** What delivering a notification needs. */
export interface NotificationPorts {
  notifications: NotificationStore;
  publisher: NotificationPublisher;
  users: Pick<UserStore, 'memberIds' | 'getMany'>;
}
