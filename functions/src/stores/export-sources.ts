import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { lazy } from '../aws/lazy';
import { config } from '../config';
import type { ExportDevice, ExportDeviceStore, ExportFileStore } from '../domain/export/ports';
import { getDevice } from './devices';
import { keys } from './keys';

const exportDevice = (item: Record<string, unknown>): ExportDevice => ({
  devID: String(item.devID),
  devName: String(item.devName ?? item.name ?? item.devID),
  devType: Number(item.devType ?? item.type ?? 0),
  orgID: String(item.orgID),
  ...(typeof item.floorID === 'string' ? { floorID: item.floorID } : {}),
  dataPoints: Array.isArray(item.dataPoints)
    ? (item.dataPoints as { dp?: unknown; dn?: unknown }[])
        .filter((p) => typeof p.dp === 'string')
        .map((p) => ({ dp: String(p.dp), ...(typeof p.dn === 'string' ? { dn: p.dn } : {}) }))
    : [],
});

/** Devices from the platform table: by id, and an organization's through its listing index. */
export const dynamoExportDevices: ExportDeviceStore = {
  async get(devId) {
    const device = await getDevice(devId);
    return device && exportDevice(device as unknown as Record<string, unknown>);
  },
  async listOfOrg(orgId) {
    const devices: ExportDevice[] = [];
    let startKey: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const page = await dynamo().send(
        new QueryCommand({
          TableName: config.platformTable,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.deviceOfOrg(orgId, '').gsi2pk },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) devices.push(exportDevice(item));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return devices;
  },
};

/** The S3 SDK, loaded on first use (aws/s3-sdk.ts). */
const s3Sdk = lazy(() => import('../aws/s3-sdk'));

/** Export files in the files bucket, read back through presigned GET links. */
export const s3ExportFiles: ExportFileStore = {
  async write(key, bytes, contentType) {
    const { PutObjectCommand, s3 } = await s3Sdk();
    await s3().send(
      new PutObjectCommand({ Bucket: config.filesBucket, Key: key, Body: bytes, ContentType: contentType }),
    );
  },
  async downloadUrl(key, { fileName, contentType, expiresInSeconds }) {
    const { GetObjectCommand, getSignedUrl, s3 } = await s3Sdk();
    return getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: config.filesBucket,
        Key: key,
        ResponseContentType: contentType,
        ResponseContentDisposition: `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
      }),
      { expiresIn: expiresInSeconds },
    );
  },
};
