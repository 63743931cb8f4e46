import { GetCommand, QueryCommand, type QueryCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { keys } from './keys';

export interface DataPoint {
  dp: string;
  dn?: string;
  val?: unknown;
  readonly?: boolean;
}

/** A device as stored (specification: Device). */
export interface Device {
  devID: string;
  devName: string;
  devType: number;
  connDev?: string;
  port?: number | string;
  gatewayID?: string;
  groupNumber?: number;
  orgID: string;
  buildID?: string;
  floorID?: string;
  onFloor: boolean;
  floorOrigin?: { x: number; y: number };
  dataPoints: DataPoint[];
  properties: Record<string, unknown>;
  childNode?: { type: 'thermistor'; devID: string; dataPoints: DataPoint[] };
  /** Latest value per data point, and when it arrived (epoch ms). */
  latest?: Record<string, number>;
  lastSeen?: number;
  updatedAt: string;
}

export const deviceItem = (device: Device) => ({
  ...keys.device(device.devID),
  ...(device.onFloor && device.floorID ? keys.deviceOnFloor(device.floorID, device.devID) : {}),
  ...keys.deviceOfOrg(device.orgID, device.devID),
  entity: 'device',
  ...device,
});

export async function getDevice(devId: string): Promise<Device | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: keys.device(devId) }),
  );
  return Item as Device | undefined;
}

/** Records a device's latest readings; older readings never overwrite newer ones. */
export async function recordLatest(
  devId: string,
  time: number,
  values: Record<string, number>,
): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.device(devId),
        UpdateExpression: 'SET latest = :latest, lastSeen = :time',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastSeen) OR lastSeen <= :time)',
        ExpressionAttributeValues: { ':latest': values, ':time': time },
      }),
    );
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return;
    throw error;
  }
}

/**
 * Takes every device off a floor (the floor is being deleted): they stay in their organization and
 * go to the off-floor list. Idempotent, and a device moved to another floor meanwhile is left alone.
 */
export async function moveDevicesOffFloor(floorId: string, now: string): Promise<number> {
  let moved = 0;
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: config.platformTable,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.deviceOnFloor(floorId, '').gsi1pk },
        ProjectionExpression: 'devID',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      try {
        await dynamo().send(
          new UpdateCommand({
            TableName: config.platformTable,
            Key: keys.device(String(item.devID)),
            UpdateExpression:
              'SET onFloor = :false, updatedAt = :now REMOVE gsi1pk, gsi1sk, floorID, buildID, floorOrigin',
            ConditionExpression: 'floorID = :floorId',
            ExpressionAttributeValues: { ':false': false, ':now': now, ':floorId': floorId },
          }),
        );
        moved++;
      } catch (error) {
        if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return moved;
}

/** The DynamoDB adapter of the registered devices, as ingest and the tree's sweep use them. */
export const dynamoDevices = {
  ownerOf: async (devId: string) => (await getDevice(devId))?.orgID,
  recordLatest,
  moveDevicesOffFloor,
};
