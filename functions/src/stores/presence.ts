import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { PresenceDevice, PresenceStore, StoredPresence } from '../domain/devices/presence';
import { dynamoDevices } from './devices';
import { queryAll } from './dynamo-kit';
import { keys, PRESENCE_WATCH_SHARDS } from './keys';

const watchedOnes = (presence: StoredPresence) => presence.online || presence.episode !== undefined;

async function watch(devId: string, orgId: string) {
  await dynamo().send(
    new PutCommand({
      TableName: config.platformTable,
      Item: { ...keys.presenceWatch(devId), entity: 'presence-watch', devId, orgId },
    }),
  );
}

async function unwatch(devId: string) {
  await dynamo().send(new DeleteCommand({ TableName: config.platformTable, Key: keys.presenceWatch(devId) }));
}

/**
 * The DynamoDB adapter of presence: the device item's `presence` map, written with a conditional
 * update (the revision read, and the newest reading read: a reading stored meanwhile is decided
 * again), and the sweep's watch list.
 */
export const dynamoPresenceStore: PresenceStore = {
  get: (devId) => dynamoDevices.get(devId),

  async saveIfUnchanged(devId, next, read) {
    const device = await dynamoDevices.get(devId);
    if (!device) return 'changed-meanwhile';
    // Listed before it needs the sweep, delisted only after: a failure in between leaves an extra
    // watch (the sweep drops it), never a device the sweep misses.
    if (watchedOnes(next)) await watch(devId, device.orgID);
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key: keys.device(devId),
          UpdateExpression: 'SET presence = :next',
          ConditionExpression: [
            'attribute_exists(pk)',
            read.rev === undefined ? 'attribute_not_exists(presence)' : 'presence.rev = :rev',
            read.lastSeen === undefined ? 'attribute_not_exists(lastSeen)' : 'lastSeen = :seen',
          ].join(' AND '),
          ExpressionAttributeValues: {
            ':next': next,
            ...(read.rev === undefined ? {} : { ':rev': read.rev }),
            ...(read.lastSeen === undefined ? {} : { ':seen': read.lastSeen }),
          },
        }),
      );
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException')
        return 'changed-meanwhile';
      throw error;
    }
    if (!watchedOnes(next)) await unwatch(devId);
    return 'saved';
  },

  async watched() {
    const ids: string[] = [];
    for (let shard = 0; shard < PRESENCE_WATCH_SHARDS; shard++) {
      const items = await queryAll({
        TableName: config.platformTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.presenceWatchPartition(shard) },
        ProjectionExpression: 'devId',
      });
      ids.push(...items.map((item) => String(item.devId)));
    }
    // Eventually consistent (half the read units, docs/cost.md): a device image up to a second old
    // cannot change presence wrongly, since every decision is written on the condition that the
    // presence and the newest reading are still what was read (saveIfUnchanged).
    const devices: PresenceDevice[] = await dynamoDevices.getMany(ids, { consistent: false });
    const found = new Set(devices.map((d) => d.devID));
    // A watched device that was deleted: nothing to sweep.
    await Promise.all(ids.filter((id) => !found.has(id)).map(unwatch));
    return devices;
  },

  unwatch,
};
