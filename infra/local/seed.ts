import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { floorPlanKey } from '@argentum/functions/domain/files/keys';
import { deviceGroupItem, deviceItem, migrateDeviceIndexes } from '@argentum/functions/stores/devices';
import { vendorPollItem } from '@argentum/functions/stores/vendor-poll';
import { polledLink } from '@argentum/functions/domain/integrations/polling';
import { batchWrite } from '@argentum/functions/stores/dynamo-kit';
import { keys } from '@argentum/functions/stores/keys';
import { buildingItem, floorItem, orgItem } from '@argentum/functions/stores/tree';
import { fullSummaryItem } from '@argentum/functions/stores/tree-summary';
import { dynamoTelemetryStore } from '@argentum/functions/stores/telemetry-dynamodb';
import { dynamoUserStore, migrateUserRecords } from '@argentum/functions/stores/users';
import { identity } from '@argentum/functions/adapters/identity';
import { systemClock } from '@argentum/functions/domain/ports';
import { createPlatformUser } from '@argentum/functions/domain/users/create-user';
import type { TelemetryPoint } from '@argentum/functions/domain/telemetry/telemetry';
import {
  buildings,
  DEFAULT_DEMO_PASSWORD,
  deviceGroups,
  demoIncidents,
  demoUsers,
  devices,
  floorPlans,
  floorPlanSvg,
  floors,
  organizations,
  readingAt,
  withIncidents,
} from './demo-data';
import { raiseDemoAlarms } from './demo-alarms';
import { seededRandom } from './simulator';

/** The item that says the demo data is loaded: its version, and where its history lies. */
export const SEED_MARKER = { pk: 'META', sk: 'SEED' };
/**
 * 2: users have per-organization membership items. 3: roles belong to memberships (orgRoles).
 * 4: device positions relative to the plan (0-1), device groups, devices on no floor.
 * 5: devices listed by the keys-only device indexes (gsi3, gsi4) instead of gsi1 and gsi2.
 * 6: devices name the gateway they report through; linked third-party devices are listed for the poller.
 */
const SEED_VERSION = 6;

async function putAll(items: Record<string, unknown>[]): Promise<void> {
  await batchWrite(
    config.platformTable,
    items.map((Item) => ({ PutRequest: { Item } })),
  );
}

/**
 * Brings local data written by an earlier version up to date, keeping what the developer changed:
 * user records from before roles belonged to memberships are migrated in place; demo devices get
 * relative positions, their group and the off-floor devices; device items move to the device indexes.
 */
async function upgradeLocalData(from: number): Promise<void> {
  if (from < 3) await migrateUserRecords();
  if (from < 4) await upgradeDevices();
  if (from < 5) await migrateDeviceIndexes({ dropOldKeys: true });
  if (from < 6) await linkDemoDevices();
  await dynamo().send(
    new UpdateCommand({
      TableName: config.platformTable,
      Key: SEED_MARKER,
      UpdateExpression: 'SET version = :version',
      ExpressionAttributeValues: { ':version': SEED_VERSION },
    }),
  );
}

const ignoreConditionFailed = (error: unknown) => {
  if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
};

/**
 * Version 4 of the demo devices, keeping what the developer changed: positions stored in plan units
 * become relative (only where they are still above 1), the demo group and the off-floor devices are
 * added where they are missing.
 */
async function upgradeDevices(): Promise<void> {
  const now = new Date().toISOString();
  for (const device of devices) {
    if (device.onFloor && device.floorOrigin) {
      await dynamo()
        .send(
          new UpdateCommand({
            TableName: config.platformTable,
            Key: keys.device(device.devID),
            UpdateExpression: 'SET floorOrigin = :origin',
            ConditionExpression: 'floorOrigin.x > :one OR floorOrigin.y > :one',
            ExpressionAttributeValues: { ':origin': device.floorOrigin, ':one': 1 },
          }),
        )
        .catch(ignoreConditionFailed);
    }
    if (!device.onFloor) {
      await dynamo()
        .send(
          new PutCommand({
            TableName: config.platformTable,
            Item: deviceItem(device),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        )
        .catch(ignoreConditionFailed);
    }
  }
  for (const group of deviceGroups) {
    const created = await dynamo()
      .send(
        new PutCommand({
          TableName: config.platformTable,
          Item: deviceGroupItem(group, now),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      )
      .then(
        () => true,
        (error: unknown) => (ignoreConditionFailed(error), false),
      );
    if (!created) continue;
    for (const devID of group.members) {
      await dynamo()
        .send(
          new UpdateCommand({
            TableName: config.platformTable,
            Key: keys.device(devID),
            UpdateExpression: 'SET groupNumber = :group',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(groupNumber)',
            ExpressionAttributeValues: { ':group': group.groupNumber },
          }),
        )
        .catch(ignoreConditionFailed);
    }
  }
}

/** The vendor poller's entries of the demo's linked third-party devices. */
const polledDemoItems = (listedAt: string) =>
  devices.filter((device) => polledLink(device)).map((device) => vendorPollItem(device.devID, listedAt));

/**
 * Version 6, keeping what the developer changed: demo devices without a gateway get the demo's, and
 * the demo's linked third-party devices are listed for the vendor poller (which drops any no longer linked).
 */
async function linkDemoDevices(): Promise<void> {
  for (const device of devices) {
    if (!device.gatewayID) continue;
    await dynamo()
      .send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key: keys.device(device.devID),
          UpdateExpression: 'SET gatewayID = :gateway',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gatewayID)',
          ExpressionAttributeValues: { ':gateway': device.gatewayID },
        }),
      )
      .catch(ignoreConditionFailed);
  }
  await putAll(polledDemoItems(new Date().toISOString()));
}

export interface SeedOptions {
  s3: S3Client;
  password: string;
  /** Days of telemetry history to generate. */
  historyDays: number;
  now?: number;
}

/** Where the demo history lies (ms since the epoch), as the seed wrote it; undefined before it is seeded. */
export async function seededHistory(): Promise<{ start: number; end: number } | undefined> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config.platformTable, Key: SEED_MARKER }));
  const [start, end] = [Item?.historyStart, Item?.historyEnd];
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : undefined;
}

/** Loads the demo data set once; later starts keep whatever the developer changed. */
export async function seedDemoData(options: SeedOptions): Promise<boolean> {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config.platformTable, Key: SEED_MARKER }));
  if (Item) {
    if (Number(Item.version) < SEED_VERSION) await upgradeLocalData(Number(Item.version));
    return false;
  }

  await putAll([
    ...organizations.map(orgItem),
    ...buildings.map(buildingItem),
    ...floors.map(floorItem),
    ...organizations.map((org) =>
      fullSummaryItem({
        org,
        buildings: buildings.filter((b) => b.orgId === org.orgId),
        floors: floors.filter((f) => f.orgId === org.orgId),
      }),
    ),
    ...devices.map(deviceItem),
    ...polledDemoItems(new Date().toISOString()),
    ...deviceGroups.map((group) => deviceGroupItem(group, new Date().toISOString())),
  ]);

  for (const spec of floorPlans) {
    await options.s3.send(
      new PutObjectCommand({
        Bucket: config.filesBucket,
        Key: floorPlanKey(spec.floor.orgId, spec.floor.floorId),
        Body: floorPlanSvg(spec),
        ContentType: 'image/svg+xml',
      }),
    );
  }

  const now = new Date().toISOString();
  for (const demo of demoUsers) {
    await createPlatformUser(
      { users: dynamoUserStore, identity, clock: systemClock },
      { ...demo, password: options.password },
    );
  }

  // History at 15-minute intervals, ending now.
  // Deterministic, so every fresh start shows the same history.
  const random = seededRandom(20261122);
  const step = 15 * 60_000;
  const end = Math.floor((options.now ?? Date.now()) / step) * step;
  const start = end - options.historyDays * 24 * 3600_000;
  const incidents = demoIncidents(start, end);
  const points: TelemetryPoint[] = [];
  for (const device of devices) {
    for (let time = start; time <= end; time += step) {
      const values = withIncidents(incidents, device, time, readingAt(device, time, random));
      if (values) points.push({ devId: device.devID, time, values });
    }
  }
  await dynamoTelemetryStore.write(points);
  await raiseDemoAlarms(incidents, points);

  await dynamo().send(
    new PutCommand({
      TableName: config.platformTable,
      Item: {
        ...SEED_MARKER,
        version: SEED_VERSION,
        seededAt: now,
        // Where the history lies, and so its incidents (demoIncidents).
        historyStart: start,
        historyEnd: end,
        password: options.password === DEFAULT_DEMO_PASSWORD ? 'default' : 'custom',
      },
    }),
  );
  return true;
}
