import { commandKeyPrefix, keys, VENDOR_POLL_PARTITION } from '@argentum/functions/stores/keys';
import type { TableStatement } from './constructs/platform-function';

/**
 * The platform-table grants of the functions that raise alarms, move presence or send mail, each limited to the
 * partition-key prefix of the items it touches (IAM `dynamodb:LeadingKeys`). The local stack's
 * DynamoDB evaluates no IAM, so infra/test/local/table-grants.test.ts runs these use cases and
 * handlers on it and checks every request they make against these lists: a key prefix the code
 * starts to use fails that test instead of a deploy.
 */

/** Commands and the states devices confirmed: items under `COMMANDS#` only (stores/commands.ts). */
export const commandItems = (actions: string[]): TableStatement => ({
  actions,
  partitionKeyPrefix: commandKeyPrefix,
});

/**
 * Raising alarms: the device, its organization's members, notifications (each alarm episode's claim
 * of its one notification too), inboxes and alarm state.
 */
export const alarmStatements: readonly TableStatement[] = [
  { actions: ['dynamodb:GetItem'], partitionKeyPrefix: keys.device('').pk },
  { actions: ['dynamodb:BatchGetItem'], partitionKeyPrefix: keys.user('').pk },
  { actions: ['dynamodb:Query'], partitionKeyPrefix: keys.membersPartition('') },
  {
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    partitionKeyPrefix: keys.notification('').pk,
  },
  { actions: ['dynamodb:PutItem'], partitionKeyPrefix: keys.episode('').pk },
  { actions: ['dynamodb:PutItem'], partitionKeyPrefix: keys.inboxPartition('') },
  { actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], partitionKeyPrefix: keys.alarms('').pk },
];

/**
 * Moving a device's presence (domain/devices/presence.ts): its item's `presence` map, the sweep's
 * watch list, its organization's alarm settings; raising its offline episodes' alarms.
 */
export const presenceStatements: readonly TableStatement[] = [
  ...alarmStatements,
  { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], partitionKeyPrefix: keys.device('').pk },
  {
    actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query'],
    partitionKeyPrefix: keys.presenceWatchPartition(0).replace(/0$/, ''),
  },
  { actions: ['dynamodb:GetItem'], partitionKeyPrefix: keys.org('').pk },
];

/**
 * The confirmation handler (control-confirmations): commands and the states devices confirmed;
 * alarms; the device's presence (its reply or announcement); its reported pairing mode and port
 * values (one-item transaction on the device), which lists a vendor link for the poller when its
 * properties carry one.
 */
export const controlConfirmationGrants: readonly TableStatement[] = [
  commandItems(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
  ...presenceStatements,
  { actions: ['dynamodb:PutItem'], partitionKeyPrefix: VENDOR_POLL_PARTITION },
];

/** The presence sweep: presence and its alarms, the watched devices read together, due mail digests. */
export const presenceSweepGrants: readonly TableStatement[] = [
  ...presenceStatements,
  { actions: ['dynamodb:BatchGetItem'], partitionKeyPrefix: keys.device('').pk },
  { actions: ['dynamodb:Query'], partitionKeyPrefix: keys.alarmDigest('').pk.replace(/DUE$/, '') },
];

/**
 * The mailer: password-reset mail (the e-mail lookup index, reset tokens and the pointer to the
 * latest) and alarm mail (the notification, its organization's name and admins, the ledger that lets
 * each alarm be mailed once, and each recipient's rate window and digest).
 */
export const mailerGrants: readonly TableStatement[] = [
  // users.findByEmail: the e-mail lookup index only.
  { actions: ['dynamodb:Query'], index: 'gsi1' },
  // putAccountToken: a new reset token, and the one it supersedes marked used ...
  {
    actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
    partitionKeyPrefix: keys.accountToken('').pk,
  },
  // ... as the pointer to the latest reset token of the e-mail names it.
  {
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
    partitionKeyPrefix: keys.latestReset('').pk,
  },
  // An alarm's mail: the notification, its organization's name and admins, and the ledger
  // that lets each alarm be mailed once.
  { actions: ['dynamodb:GetItem'], partitionKeyPrefix: keys.notification('').pk },
  { actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'], partitionKeyPrefix: keys.user('').pk },
  { actions: ['dynamodb:Query'], partitionKeyPrefix: keys.membersPartition('') },
  {
    actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'],
    partitionKeyPrefix: keys.orgPartition(''),
  },
  {
    actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
    partitionKeyPrefix: keys.alarmMail('', '').pk,
  },
  // Alarm mail per recipient: the window's count, and the digest it collects the rest in.
  { actions: ['dynamodb:UpdateItem'], partitionKeyPrefix: keys.alarmMailRate('', 0).pk },
  {
    actions: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    partitionKeyPrefix: keys.alarmDigest('').pk.replace(/DUE$/, ''),
  },
];
