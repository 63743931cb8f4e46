import { hasRole, Role } from '@argentum/events/contracts';
import { alarmMail } from '../auth/mail-templates';
import type { AccountSettings, Mailer } from '../auth/ports';
import type { UserStore } from '../users/ports';
import { messageText } from './messages';
import type { NotificationStore } from './ports';

/** Records which alarms were mailed, so that a redelivered job mails nobody twice. */
export interface AlarmMailLedger {
  /** Claims the mail of a notification; false when it was claimed before. */
  claim(notificationId: string): Promise<boolean>;
  /** Gives a claim back (the mail could not be sent), so that a retry sends it. */
  release(notificationId: string): Promise<void>;
}

export interface AlarmMailPorts {
  notifications: Pick<NotificationStore, 'get'>;
  users: Pick<UserStore, 'memberIds' | 'getMany'>;
  mailer: Mailer;
  settings: AccountSettings;
  alarmMails: AlarmMailLedger;
  organizations: { namesOf(orgIds: readonly string[]): Promise<Map<string, string>> };
}

/**
 * Mails an error alarm to the admins of its organization: at most once per alarm (the ledger claims
 * it first), with a link that opens the device's floor and highlights the device.
 */
export async function sendAlarmMail(deps: AlarmMailPorts, notificationId: string): Promise<void> {
  const notification = await deps.notifications.get(notificationId);
  if (!notification) return;
  if (!(await deps.alarmMails.claim(notificationId))) return;
  try {
    const members = await deps.users.getMany(await deps.users.memberIds(notification.orgId));
    const admins = members.filter((u) => hasRole(u.orgRoles, notification.orgId, Role.admin));
    const organizationName = (await deps.organizations.namesOf([notification.orgId])).get(notification.orgId);
    if (!organizationName) return; // The organization is gone: nobody to alert.
    const { floorID, devID } = notification.properties;
    const link =
      floorID && devID
        ? `${deps.settings.appOrigin}/home?${new URLSearchParams({ floor: floorID, highlight: devID }).toString()}`
        : `${deps.settings.appOrigin}/home`;
    const text = messageText(notification.message);
    for (const admin of admins)
      await deps.mailer.send(alarmMail({ to: admin.email, organizationName, text, link }));
  } catch (error) {
    await deps.alarmMails.release(notificationId);
    throw error;
  }
}
