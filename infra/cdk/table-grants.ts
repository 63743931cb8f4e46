import { commandKeyPrefix, keys } from '@argentum/functions/stores/keys';
import type { TableStatement } from './constructs/platform-function';

/**
 * Platform-table grants shared by several functions, each limited to the partition-key prefix of the
 * items it touches (IAM `dynamodb:LeadingKeys`). The local stack's DynamoDB evaluates no IAM, so
 * infra/test/local/table-grants.test.ts runs these use cases on it and checks every request they
 * make against these lists: a key prefix the code starts to use is caught before AWS refuses it.
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
