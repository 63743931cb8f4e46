import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/clients';
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
