import { hasRole, Role } from '@argentum/contracts';
import { createHash } from 'node:crypto';
import { alarmDigestMail, alarmMail } from '../auth/mail-templates';
import type { AccountSettings, AlarmDigestJob, JobQueue, Mailer } from '../auth/ports';
import type { UserStore } from '../users/ports';
import { messageText } from './notification-html';
import type { NotificationStore } from './ports';

/** Records which alarms were mailed to whom, so that a redelivered job mails nobody twice. */
export interface AlarmMailLedger {
  /** Claims the mail of a notification to one recipient (`recipientKey`); false when it was claimed before. */
  claim(notificationId: string, recipientKey: string): Promise<boolean>;
  /** Gives a recipient's claim back (the mail could not be sent), so that a retry sends it. */
  release(notificationId: string, recipientKey: string): Promise<void>;
}

/**
 * Alarm mail per recipient: the first alarm in a window is mailed at once, the others due to the same
 * recipient in that window are collected and mailed as one digest when the window ends. A stormy hour
 * sends a recipient at most 2 mails per window (8 an hour), whatever the number of devices.
 * 15 minutes: short enough that a second problem is reported while it is still news, long enough
 * that a building-wide outage is one or two mails, not one per device.
 */
export const ALARM_MAIL_WINDOW_MS = 15 * 60_000;
export const ALARM_MAILS_AT_ONCE_PER_WINDOW = 1;

/** Where the per-recipient counts and digests live (stores/alarms.ts). */
export interface AlarmMailRate {
  /**
   * Counts the notification's alarm mail due to the recipient in the window; answers its place in the
   * window (1: the first). Once per notification: counting it again answers the place it was given.
   */
  count(recipientKey: string, windowStart: number, notificationId: string): Promise<number>;
  /** Adds a notification to the recipient's digest of the window (due at its end); a set: never twice. */
  addToDigest(digestKey: string, recipient: string, notificationId: string, dueAt: number): Promise<void>;
  /** The keys of digests due at `now`. */
  due(now: number): Promise<string[]>;
  /** Takes a digest (once): its recipient and notifications; undefined when taken before. */
  take(digestKey: string): Promise<{ recipient: string; notificationIds: string[] } | undefined>;
  /** Gives a taken digest back (its mail could not be sent). */
  restore(
    digestKey: string,
    digest: { recipient: string; notificationIds: string[] },
    dueAt: number,
  ): Promise<void>;
}

/** A recipient as keys name it: the SHA-256 of the address (no address in a key). */
export const recipientKey = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('hex');
export const digestKeyOf = (dueAt: number, email: string) =>
  `${String(dueAt).padStart(13, '0')}#${recipientKey(email)}`;

export interface AlarmMailPorts {
  notifications: Pick<NotificationStore, 'get'>;
  users: Pick<UserStore, 'memberIds' | 'getMany'>;
  mailer: Mailer;
  settings: AccountSettings;
  alarmMails: AlarmMailLedger;
  organizations: { namesOf(orgIds: readonly string[]): Promise<Map<string, string>> };
  alarmMailRate: AlarmMailRate;
}

/** The link of a notification's device: its floor with the device selected, or the app when it is on none. */
function deviceLink(appOrigin: string, properties: { floorID?: string; devID?: string }): string {
  const { floorID, devID } = properties;
  return floorID && devID
    ? `${appOrigin}/home?${new URLSearchParams({ floor: floorID, highlight: devID }).toString()}`
    : `${appOrigin}/home`;
}

/**
 * Mails an error alarm to the admins of its organization: at most once per alarm and admin (the ledger
 * claims each admin's mail first), with a link that opens the device's floor and highlights the device.
 * A mail that fails gives back only its admin's claim, and the job fails after the others were served:
 * its retry mails that admin alone, in the place the alarm had in the admin's window.
 */
export async function sendAlarmMail(deps: AlarmMailPorts, notificationId: string): Promise<void> {
  const notification = await deps.notifications.get(notificationId);
  if (!notification) return;
  const members = await deps.users.getMany(await deps.users.memberIds(notification.orgId));
  const admins = members.filter((u) => hasRole(u.orgRoles, notification.orgId, Role.admin));
  const organizationName = (await deps.organizations.namesOf([notification.orgId])).get(notification.orgId);
  if (!organizationName) return; // The organization is gone: nobody to alert.
  const link = deviceLink(deps.settings.appOrigin, notification.properties);
  const text = messageText(notification.message);
  const time = Date.parse(notification.createdAt);
  const windowStart = Math.floor(time / ALARM_MAIL_WINDOW_MS) * ALARM_MAIL_WINDOW_MS;
  const failures: unknown[] = [];
  for (const admin of admins) {
    const recipient = recipientKey(admin.email);
    if (!(await deps.alarmMails.claim(notificationId, recipient))) continue;
    try {
      const count = await deps.alarmMailRate.count(recipient, windowStart, notificationId);
      if (count <= ALARM_MAILS_AT_ONCE_PER_WINDOW)
        await deps.mailer.send(alarmMail({ to: admin.email, organizationName, text, link }));
      else {
        const dueAt = windowStart + ALARM_MAIL_WINDOW_MS;
        await deps.alarmMailRate.addToDigest(
          digestKeyOf(dueAt, admin.email),
          admin.email,
          notificationId,
          dueAt,
        );
      }
    } catch (error) {
      await deps.alarmMails.release(notificationId, recipient);
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} alarm mails failed`);
}

/** The scheduled part (the presence sweep runs it every minute): every digest now due becomes a mail job. */
export async function queueDueDigests(
  deps: { alarmMailRate: Pick<AlarmMailRate, 'due'>; alarmMail: JobQueue<AlarmDigestJob> },
  now: number,
): Promise<number> {
  const keys = await deps.alarmMailRate.due(now);
  for (const digestKey of keys) await deps.alarmMail.send({ kind: 'alarm-digest', digestKey });
  return keys.length;
}

/**
 * Mails a recipient's digest: once (taken first), every alarm named with its device's link, oldest
 * first. An alarm resolved by then (`clearedAt`: the device is back) is left out, as it is no news;
 * when none is left, nothing is sent.
 */
export async function sendAlarmDigest(deps: AlarmMailPorts, digestKey: string): Promise<void> {
  const digest = await deps.alarmMailRate.take(digestKey);
  if (!digest) return;
  try {
    const notifications = (await Promise.all(digest.notificationIds.map((id) => deps.notifications.get(id))))
      .filter((n) => n !== undefined)
      .filter((n) => n.clearedAt === undefined)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const names = await deps.organizations.namesOf([...new Set(notifications.map((n) => n.orgId))]);
    const alarms = notifications.flatMap((n) => {
      const organizationName = names.get(n.orgId);
      return organizationName
        ? [
            {
              text: messageText(n.message),
              link: deviceLink(deps.settings.appOrigin, n.properties),
              organizationName,
            },
          ]
        : [];
    });
    if (alarms.length === 0) return;
    await deps.mailer.send(
      alarms.length === 1 && alarms[0]
        ? alarmMail({ to: digest.recipient, ...alarms[0] })
        : alarmDigestMail({ to: digest.recipient, alarms, homeLink: `${deps.settings.appOrigin}/home` }),
    );
  } catch (error) {
    await deps.alarmMailRate.restore(digestKey, digest, Number(digestKey.split('#')[0]));
    throw error;
  }
}
