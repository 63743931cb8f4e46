import { randomBytes } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../src/aws/dynamo';
import { config } from '../../src/config';
import { deviceItem } from '../../src/stores/devices';
import { seriesKey } from '../../src/stores/telemetry-dynamodb';

/** A fresh device id (a MAC no other test uses). */
export const freshDevId = () =>
  [...randomBytes(6)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');

/** Registers a device in an organization, as the device calls do (straight into the platform table). */
export async function registerDevice(
  devId: string,
  orgId: string,
  devType = 5,
  dataPoints = ['temp', 'hum'],
  /** Placed on this floor (at its middle) rather than on none. */
  floor?: { buildId: string; floorId: string },
) {
  await dynamo().send(
    new PutCommand({
      TableName: config.platformTable,
      Item: deviceItem({
        devID: devId,
        devName: `Sensor-${devId.slice(-5).replace(':', '')}`,
        devType,
        orgID: orgId,
        ...(floor
          ? { buildID: floor.buildId, floorID: floor.floorId, onFloor: true, floorOrigin: { x: 50, y: 50 } }
          : { onFloor: false }),
        dataPoints: dataPoints.map((dp) => ({ dp })),
        properties: {},
        updatedAt: new Date().toISOString(),
      }),
    }),
  );
}

/** Every item of a device's series (raw, hour or day), oldest first. */
export async function seriesItems(devId: string, resolution: 'raw' | 'hour' | 'day') {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: config.telemetryTable,
        KeyConditionExpression: 'series = :s',
        ExpressionAttributeValues: { ':s': seriesKey(devId, resolution) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

export const waitUntil = async <T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 250));
  }
};
