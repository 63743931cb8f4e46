import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_ALARM_SETTINGS, type OrganizationAlarmSettings } from '@argentum/contracts';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { keys } from './keys';

/** Settings are read on every presence decision; a change reaches the other Lambdas within this. */
const CACHE_MS = 30_000;
const cache = new Map<string, { settings: OrganizationAlarmSettings; until: number }>();

function settingsFrom(item: Record<string, unknown> | undefined): OrganizationAlarmSettings {
  const stored = (item?.alarmSettings ?? {}) as Partial<OrganizationAlarmSettings>;
  return {
    offlineGraceMinutes:
      typeof stored.offlineGraceMinutes === 'number'
        ? stored.offlineGraceMinutes
        : DEFAULT_ALARM_SETTINGS.offlineGraceMinutes,
    alarmUnplacedDevices:
      typeof stored.alarmUnplacedDevices === 'boolean'
        ? stored.alarmUnplacedDevices
        : DEFAULT_ALARM_SETTINGS.alarmUnplacedDevices,
  };
}

/** An organization's alarm settings: the `alarmSettings` map of its item (defaults when unset). */
export const dynamoAlarmSettings = {
  async get(orgId: string, fresh = false): Promise<OrganizationAlarmSettings> {
    const cached = cache.get(orgId);
    if (!fresh && cached && cached.until > Date.now()) return cached.settings;
    const { Item } = await dynamo().send(
      new GetCommand({
        TableName: config.platformTable,
        Key: keys.org(orgId),
        ProjectionExpression: 'alarmSettings',
        ConsistentRead: true,
      }),
    );
    const settings = settingsFrom(Item);
    cache.set(orgId, { settings, until: Date.now() + CACHE_MS });
    return settings;
  },
  /** Saves the settings of an existing organization; false when there is none. */
  async set(orgId: string, settings: OrganizationAlarmSettings, now: string): Promise<boolean> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key: keys.org(orgId),
          UpdateExpression: 'SET alarmSettings = :settings, alarmSettingsUpdatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
          ExpressionAttributeValues: { ':settings': settings, ':now': now },
        }),
      );
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
    cache.set(orgId, { settings, until: Date.now() + CACHE_MS });
    return true;
  },
};
