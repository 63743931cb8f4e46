import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { DataPoint, Device, PortName, PortValues } from '../domain/devices/device';
import { isNewestReading, takeReading } from '../domain/devices/latest';
import type {
  CommitOutcome,
  DeviceChange,
  DeviceCommit,
  DeviceGroup,
  DeviceStore,
  GroupChange,
  IconSizeStore,
  ReportedPorts,
} from '../domain/devices/ports';
import type { NodeRef } from '../domain/tree/ports';
import {
  batchGet,
  type Item,
  queryAll,
  queryPages,
  scanItems,
  type TransactItem,
  transactWrite,
} from './dynamo-kit';
import { conflictBackOff, pauseBefore } from '../lib/backoff';
import { keys } from './keys';
import { dynamoPolledDevices } from './vendor-poll';
import { namesVendorLink } from '../domain/integrations/vendor-devices';
import { nodeKey } from './tree';
import { floorTypesWrites } from './tree-summary';

export type { DataPoint, Device };

export const deviceItem = (device: Device) => ({
  ...keys.device(device.devID),
  ...(device.onFloor && device.floorID ? keys.deviceOnFloor(device.floorID, device.devID) : {}),
  ...keys.deviceOfOrg(device.orgID, device.devID),
  entity: 'device',
  ...device,
});

/** A device group's item: its number is claimed in the organization while the item exists. */
export const deviceGroupItem = (group: Omit<DeviceGroup, 'version'> & { version?: number }, now: string) => ({
  ...keys.deviceGroup(group.orgId, group.groupNumber),
  entity: 'deviceGroup',
  orgId: group.orgId,
  groupNumber: group.groupNumber,
  members: group.members,
  version: group.version ?? 0,
  createdAt: now,
  updatedAt: now,
});

/**
 * The device an item holds, its key attributes left out (gsi1 and gsi2: items from before the device
 * indexes, until migrated): the one mapper every device reader uses.
 * Items written by older clients may name fields as the specification also allows (name, type,
 * conndev) and lack lists: read as a Device; data points without a key are left out.
 */
export function deviceFromItem(item: Item): Device {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _g1,
    gsi1sk: _g1s,
    gsi2pk: _g2,
    gsi2sk: _g2s,
    gsi3pk: _g3,
    gsi3sk: _g3s,
    gsi4pk: _g4,
    gsi4sk: _g4s,
    entity: _e,
    ...rest
  } = item;
  const { name, type, conndev, ...device } = rest;
  const connDev = device.connDev ?? conndev;
  return {
    ...device,
    devName: String(device.devName ?? name ?? ''),
    devType: Number(device.devType ?? type ?? -1),
    ...(typeof connDev === 'string' ? { connDev } : {}),
    onFloor: device.onFloor === true,
    dataPoints: Array.isArray(device.dataPoints)
      ? device.dataPoints.filter(
          (p): p is DataPoint => typeof p === 'object' && p !== null && typeof (p as Item).dp === 'string',
        )
      : [],
    properties: typeof device.properties === 'object' && device.properties !== null ? device.properties : {},
  } as Device;
}

/** A registered device, read consistently. */
async function getDevice(devId: string): Promise<Device | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: keys.device(devId), ConsistentRead: true }),
  );
  return Item ? deviceFromItem(Item) : undefined;
}

/** Registered devices, read consistently unless `consistent: false` (half the read units). */
async function getDevices(
  devIds: readonly string[],
  { consistent = true }: { consistent?: boolean } = {},
): Promise<Device[]> {
  const ids = [...new Set(devIds)];
  const items = await batchGet(
    config.platformTable,
    ids.map((id) => keys.device(id)),
    { consistent },
  );
  return items.map(deviceFromItem);
}

/**
 * Keys a listing's query page holds: the items of one page are read (5 BatchGets) while the next is
 * fetched. Measured on DynamoDB Local, 2,000 devices of a floor: 1.3x one query of an index of every
 * attribute, where one page of all keys and then the reads took 1.6x.
 */
const LISTING_PAGE = 500;

/**
 * The devices an index partition lists, read from their items: the indexes project keys only, so
 * latest values, lastSeen and presence (which a reading writes) come from the items. Each page of the
 * query is read while the next is fetched, 100 keys a BatchGetItem, several at once. The index is
 * eventually consistent: `belongs` keeps the items that (still) belong to the listing.
 */
async function listed(
  index: 'gsi3' | 'gsi4',
  partition: string,
  belongs: (device: Device) => boolean,
): Promise<Device[]> {
  const reads: Promise<Item[]>[] = [];
  for await (const page of queryPages({
    TableName: config.platformTable,
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk`,
    ExpressionAttributeValues: { ':pk': partition },
    Limit: LISTING_PAGE,
  })) {
    const read = batchGet(
      config.platformTable,
      (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk })),
    );
    // Awaited below; handled now so a failure while the next page is fetched is not reported unhandled.
    read.catch(() => undefined);
    reads.push(read);
  }
  return (await Promise.all(reads))
    .flat()
    .map(deviceFromItem)
    .filter(belongs)
    .sort((a, b) => (a.devID < b.devID ? -1 : a.devID > b.devID ? 1 : 0));
}

const devicesOnFloor = (floorId: string) =>
  listed('gsi3', keys.deviceOnFloor(floorId, '').gsi3pk, (d) => d.onFloor && d.floorID === floorId);

const devicesOfOrganization = (orgId: string) =>
  listed('gsi4', keys.deviceOfOrg(orgId, '').gsi4pk, (d) => d.orgID === orgId);

const isMap = (value: unknown): value is Item =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One conditional update of a device item (SET each of `sets`, all of `conditions`): answers the item
 * as written, or, refused, the item as it was (no read: the refusal carries it); undefined when there
 * is no item (the device is gone).
 */
async function updateDeviceIf(
  devId: string,
  update: {
    sets: string[];
    conditions: string[];
    names: Record<string, string>;
    values: Record<string, unknown>;
  },
): Promise<{ written: Item } | { refused: Item } | undefined> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.device(devId),
        UpdateExpression: `SET ${update.sets.join(', ')}`,
        ConditionExpression: update.conditions.join(' AND '),
        ...(Object.keys(update.names).length > 0 ? { ExpressionAttributeNames: update.names } : {}),
        ExpressionAttributeValues: update.values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return Attributes ? { written: Attributes } : undefined;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return error.Item ? { refused: unmarshall(error.Item) } : undefined;
  }
}

/**
 * Records a device's latest readings, per data point, each beside the time of the reading that brought
 * it (`latestAt`): a point takes the reading's value unless the device holds a newer one of it, and
 * the device's time (`lastSeen`) is that of its newest reading. A reading of some points (a command's
 * confirmed value) leaves the others as they were, and one older than the device's time still brings
 * the points it is the newest word on. Answers the device as the write left it (ReturnValues costs no
 * read units), so ingest decides presence, live values and alarms from it instead of reading the device
 * again; undefined when the reading brought nothing newer, or the device is gone (never an item made
 * anew). The common write, a reading at least as new as the device's time, sets its points into both
 * maps in one conditional update (no point is newer than the device's time). Any other is made from
 * the item its refusal answered (no read): both maps whole (`takeReading`, domain/devices/latest.ts),
 * conditioned on the maps and the time as they were. A device's own reading that becomes its newest
 * also sets its clock's offset (`clockOffset`). It sets only attributes no index projects and no index
 * key: one write unit, no index write.
 */
export async function recordLatest(
  devId: string,
  time: number,
  values: Record<string, number>,
  clockOffset?: number,
): Promise<Device | undefined> {
  const points = Object.entries(values);
  const offset = clockOffset !== undefined ? { ':offset': clockOffset } : {};
  // The first write assumes an item with both maps and an older time; a refusal answers the item.
  let answer = await updateDeviceIf(devId, {
    sets: [
      'lastSeen = :time',
      ...(clockOffset !== undefined ? ['clockOffset = :offset'] : []),
      ...points.flatMap((_, i) => [`latest.#p${i} = :v${i}`, `latestAt.#p${i} = :time`]),
    ],
    conditions: [
      'attribute_exists(pk)',
      '(attribute_not_exists(lastSeen) OR lastSeen <= :time)',
      ...(points.length > 0 ? ['attribute_type(latest, :map)', 'attribute_type(latestAt, :map)'] : []),
    ],
    names: Object.fromEntries(points.map(([point], i) => [`#p${i}`, point])),
    values: {
      ':time': time,
      ...offset,
      ...(points.length > 0 ? { ':map': 'M' } : {}),
      ...Object.fromEntries(points.map(([, value], i) => [`:v${i}`, value])),
    },
  });
  for (let attempt = 1; ; attempt++) {
    if (!answer) return undefined;
    if ('written' in answer) return deviceFromItem(answer.written);
    if (attempt === conflictBackOff.attempts) {
      throw new Error(`Device ${devId} kept changing while its latest values were stored`);
    }
    // The first refusal is usually the common write's assumption (an older reading, no maps yet);
    // later ones are concurrent readings of the device, which wait before they try again.
    if (attempt > 1) await pauseBefore(attempt - 1);
    const item = answer.refused;
    const held = {
      ...(isMap(item.latest) ? { latest: item.latest as Record<string, number> } : {}),
      ...(isMap(item.latestAt) ? { latestAt: item.latestAt as Record<string, number> } : {}),
      ...(typeof item.lastSeen === 'number' ? { lastSeen: item.lastSeen } : {}),
    };
    const next = takeReading(held, time, values);
    if (!next) return undefined;
    const newest = clockOffset !== undefined && isNewestReading(held, time);
    // What the item held, as it held it: the write lands only if nothing changed it meanwhile.
    const unchanged = (attribute: keyof typeof held, placeholder: string) =>
      held[attribute] === undefined ? `attribute_not_exists(${attribute})` : `${attribute} = ${placeholder}`;
    answer = await updateDeviceIf(devId, {
      sets: [
        'latest = :latest',
        'latestAt = :times',
        'lastSeen = :time',
        ...(newest ? ['clockOffset = :offset'] : []),
      ],
      conditions: [
        'attribute_exists(pk)',
        unchanged('latest', ':held'),
        unchanged('latestAt', ':heldTimes'),
        unchanged('lastSeen', ':seen'),
      ],
      names: {},
      values: {
        ':latest': next.latest,
        ':times': next.latestAt,
        ':time': next.lastSeen,
        ...(newest ? offset : {}),
        ...(held.latest ? { ':held': held.latest } : {}),
        ...(held.latestAt ? { ':heldTimes': held.latestAt } : {}),
        ...(held.lastSeen !== undefined ? { ':seen': held.lastSeen } : {}),
      },
    });
  }
}

/**
 * Counts an alarm episode the device's readings opened (`alarmsOpened`, atomic ADD; no index projects
 * it); a device gone meanwhile stays gone.
 */
async function noteAlarmOpened(devId: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.device(devId),
        UpdateExpression: 'ADD alarmsOpened :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Stores a power node's reported port values, each beside the report's broker time (`portReportedAt`,
 * a map by port like `properties`), in one conditional update: for each port it writes, the time stored
 * is missing (a value from before times were kept, or none) or not newer. A refusal answers the item
 * (no read): the write is made again with the ports that still win, or ends when none does or the
 * device is not the organization's. An item without the maps gets them whole. Every write raises the
 * version, so a device call that read the properties before it is refused and reads them again.
 */
export async function recordPortReport(report: ReportedPorts): Promise<PortValues | undefined> {
  const { devId, orgId, at, ports, now } = report;
  const reported = Object.entries(ports) as [PortName, 0 | 1][];
  // The item as the last refusal answered it; undefined: assumed to have both maps and no newer port.
  let item: Item | undefined;
  for (let attempt = 1; attempt <= conflictBackOff.attempts; attempt++) {
    // The first refusal is usually the write's assumption (no maps yet, a newer port); later ones are
    // concurrent writes of the device, which wait before they try again.
    if (attempt > 2) await pauseBefore(attempt - 2);
    if (item && item.orgID !== orgId) return undefined;
    const times = item?.portReportedAt;
    const winning = reported.filter(([port]) => {
      const time = isMap(times) ? times[port] : undefined;
      return !(typeof time === 'number' && time > at);
    });
    if (winning.length === 0) return {};
    const sets = ['version = if_not_exists(version, :zero) + :one', 'updatedAt = :now'];
    const conditions = ['attribute_exists(pk)', 'orgID = :org'];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {
      ':zero': 0,
      ':one': 1,
      ':now': now,
      ':org': orgId,
      ':map': 'M',
    };
    if (!item || isMap(item.properties)) {
      conditions.push('attribute_type(properties, :map)');
      for (const [i, [port, value]] of winning.entries()) {
        names[`#p${i}`] = port;
        values[`:v${i}`] = value;
        sets.push(`properties.#p${i} = :v${i}`);
      }
    } else {
      conditions.push('NOT attribute_type(properties, :map)');
      values[':properties'] = Object.fromEntries(winning);
      sets.push('properties = :properties');
    }
    if (!item || isMap(times)) {
      conditions.push('attribute_type(portReportedAt, :map)');
      values[':at'] = at;
      for (const [i, [port]] of winning.entries()) {
        names[`#p${i}`] = port;
        sets.push(`portReportedAt.#p${i} = :at`);
        conditions.push(`(attribute_not_exists(portReportedAt.#p${i}) OR portReportedAt.#p${i} <= :at)`);
      }
    } else {
      conditions.push('NOT attribute_type(portReportedAt, :map)');
      values[':times'] = Object.fromEntries(winning.map(([port]) => [port, at]));
      sets.push('portReportedAt = :times');
    }
    const answer = await updateDeviceIf(devId, { sets, conditions, names, values });
    if (!answer) return undefined;
    if ('written' in answer) return Object.fromEntries(winning);
    item = answer.refused;
  }
  throw new Error(`Device ${devId} kept changing while its port report was stored`);
}

/**
 * Takes every device off a floor (the floor is being deleted): they stay in their organization and
 * go to the off-floor list. Idempotent, and a device moved to another floor meanwhile is left alone.
 */
export async function moveDevicesOffFloor(floorId: string, now: string): Promise<number> {
  let moved = 0;
  for await (const page of queryPages({
    TableName: config.platformTable,
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.deviceOnFloor(floorId, '').gsi3pk },
  })) {
    for (const item of page.Items ?? []) {
      try {
        await dynamo().send(
          new UpdateCommand({
            TableName: config.platformTable,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression:
              'SET onFloor = :false, updatedAt = :now, version = if_not_exists(version, :zero) + :one ' +
              'REMOVE gsi3pk, gsi3sk, floorID, buildID, floorOrigin',
            ConditionExpression: 'floorID = :floorId',
            ExpressionAttributeValues: {
              ':false': false,
              ':now': now,
              ':floorId': floorId,
              ':zero': 0,
              ':one': 1,
            },
          }),
        );
        moved++;
      } catch (error) {
        if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
      }
    }
  }
  return moved;
}

/** A condition on a counter: at `expected`, a missing counter counting as 0. */
function counterIs(attribute: string, placeholder: string, expected: number) {
  return expected === 0
    ? `(attribute_not_exists(${attribute}) OR ${attribute} = ${placeholder})`
    : `${attribute} = ${placeholder}`;
}

const LIVE = 'attribute_exists(pk) AND attribute_not_exists(deletedAt)';

/** Fields a device change may set, with their attribute names. */
const SETTABLE = [
  'devName',
  'port',
  'dataPoints',
  'properties',
  'childNode',
  'groupNumber',
  'gatewayID',
] as const;

function deviceUpdate(change: DeviceChange, now: string): TransactItem {
  const sets = ['version = :next', 'updatedAt = :now'];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':next': change.expectedVersion + 1,
    ':expected': change.expectedVersion,
    ':now': now,
    ':org': change.orgId,
  };
  for (const field of SETTABLE) {
    const value = change.set?.[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  if (change.removeGroup) removes.push('groupNumber');
  const placement = change.placement;
  if (placement === 'off') {
    sets.push('onFloor = :false');
    values[':false'] = false;
    removes.push('gsi3pk', 'gsi3sk', 'floorID', 'buildID', 'floorOrigin');
  } else if (placement) {
    const lookup = keys.deviceOnFloor(placement.floorId, change.devId);
    sets.push(
      'onFloor = :true',
      'floorID = :floorId',
      'buildID = :buildId',
      'floorOrigin = :origin',
      'gsi3pk = :gsi3pk',
      'gsi3sk = :gsi3sk',
    );
    Object.assign(values, {
      ':true': true,
      ':floorId': placement.floorId,
      ':buildId': placement.buildId,
      ':origin': placement.floorOrigin,
      ':gsi3pk': lookup.gsi3pk,
      ':gsi3sk': lookup.gsi3sk,
    });
  }
  return {
    Update: {
      TableName: config.platformTable,
      Key: keys.device(change.devId),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: `attribute_exists(pk) AND orgID = :org AND ${counterIs('version', ':expected', change.expectedVersion)}`,
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

function groupWrite(change: GroupChange, now: string): TransactItem {
  const Key = keys.deviceGroup(change.orgId, change.groupNumber);
  if (change.kind === 'create') {
    return {
      Put: {
        TableName: config.platformTable,
        Item: deviceGroupItem(change, now),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  if (change.kind === 'update') {
    return {
      Update: {
        TableName: config.platformTable,
        Key,
        UpdateExpression: 'SET members = :members, version = :next, updatedAt = :now',
        ConditionExpression: 'version = :expected',
        ExpressionAttributeValues: {
          ':members': change.members,
          ':next': change.expectedVersion + 1,
          ':expected': change.expectedVersion,
          ':now': now,
        },
      },
    };
  }
  return {
    Delete: {
      TableName: config.platformTable,
      Key,
      ConditionExpression: 'version = :expected',
      ExpressionAttributeValues: { ':expected': change.expectedVersion },
    },
  };
}

/** Whether a floor is gone (removed, or its delete committed), after a refused commit. */
async function floorGone(floor: NodeRef): Promise<boolean> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: nodeKey(floor), ConsistentRead: true }),
  );
  return !Item || typeof Item.deletedAt === 'string';
}

/** Everything one use case writes, in one transaction: all of it or nothing. */
export async function commitDevices(write: DeviceCommit): Promise<CommitOutcome> {
  // A vendor link is listed for the poller before it is written: a commit refused after this leaves an
  // extra entry, which the poller takes off; never a link it misses.
  for (const change of write.devices)
    if (namesVendorLink(change.set?.properties)) await dynamoPolledDevices.add(change.devId, write.now);
  type Reason = Extract<CommitOutcome, { outcome: 'refused' }>['reason'];
  const items: { item: TransactItem; refused: () => Promise<Reason> }[] = [
    ...write.devices.map((change) => ({
      item: deviceUpdate(change, write.now),
      refused: async (): Promise<Reason> => 'device-changed',
    })),
    ...write.floors.map((change) => ({
      item: {
        Update: {
          TableName: config.platformTable,
          Key: nodeKey(change.floor),
          UpdateExpression: 'SET floorDevTypes = :types, devicesVersion = :next, updatedAt = :now',
          ConditionExpression: `${LIVE} AND ${counterIs('devicesVersion', ':expected', change.expectedDevicesVersion)}`,
          ExpressionAttributeValues: {
            ':types': change.floorDevTypes,
            ':next': change.expectedDevicesVersion + 1,
            ':expected': change.expectedDevicesVersion,
            ':now': write.now,
          },
        },
      } satisfies TransactItem,
      refused: async (): Promise<Reason> =>
        (await floorGone(change.floor)) ? 'floor-gone' : 'floor-changed',
    })),
    ...write.groups.map((change) => ({
      item: groupWrite(change, write.now),
      refused: async (): Promise<Reason> => (change.kind === 'create' ? 'group-taken' : 'group-changed'),
    })),
    ...write.live.map((node) => ({
      item: {
        ConditionCheck: { TableName: config.platformTable, Key: nodeKey(node), ConditionExpression: LIVE },
      } satisfies TransactItem,
      refused: async (): Promise<Reason> => 'floor-gone',
    })),
    // The floors' device types in their organizations' tree summaries (stores/tree-summary.ts).
    ...(await floorTypesWrites(write.floors)).map((item) => ({
      item,
      refused: async (): Promise<Reason> => 'device-changed',
    })),
  ];
  const written = await transactWrite(items.map((i) => i.item));
  if (written.outcome === 'written') return written;
  // A failed condition names what changed; without one, a concurrent transaction got in the way.
  const refused = written.failed[0] === undefined ? undefined : items[written.failed[0]]?.refused;
  return { outcome: 'refused', reason: refused ? await refused() : 'device-changed' };
}

async function floorDevicesVersion(floor: NodeRef): Promise<number | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.platformTable,
      Key: nodeKey(floor),
      ConsistentRead: true,
      ProjectionExpression: 'pk, devicesVersion',
    }),
  );
  if (!Item) return undefined;
  return typeof Item.devicesVersion === 'number' ? Item.devicesVersion : 0;
}

async function getGroup(orgId: string, groupNumber: number): Promise<DeviceGroup | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.platformTable,
      Key: keys.deviceGroup(orgId, groupNumber),
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  return {
    orgId,
    groupNumber,
    members: Array.isArray(Item.members) ? Item.members.map(String) : [],
    version: typeof Item.version === 'number' ? Item.version : 0,
  };
}

/** A new device's item, unless the id is registered already (conditional put). */
async function registerDevice(
  device: Device,
): Promise<{ outcome: 'written' } | { outcome: 'exists'; device: Device }> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: deviceItem(device),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return { outcome: 'written' };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const existing = await getDevice(device.devID);
    if (!existing) throw error;
    return { outcome: 'exists', device: existing };
  }
}

/** The index keys a device item is due, from its own organization and placement. */
function dueIndexKeys(item: Item) {
  const devId = String(item.devID);
  return {
    ...keys.deviceOfOrg(String(item.orgID), devId),
    ...(item.onFloor === true && typeof item.floorID === 'string'
      ? keys.deviceOnFloor(item.floorID, devId)
      : {}),
  };
}

const OLD_INDEX_KEYS = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'] as const;
const DEVICE_INDEX_KEYS = ['gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk'] as const;

/** Gives one device item the index keys it is due; false when it had them (nothing written). */
async function migrateDeviceItem(read: Item, dropOldKeys: boolean): Promise<boolean> {
  const Key = keys.device(String(read.devID));
  let item: Item | undefined = read;
  if (typeof read.devID !== 'string' || typeof read.orgID !== 'string') return false;
  for (let attempt = 1; item && attempt <= conflictBackOff.attempts; attempt++) {
    if (attempt > 1) await pauseBefore(attempt - 1);
    const due: Record<string, unknown> = dueIndexKeys(item);
    const stale = DEVICE_INDEX_KEYS.filter((k) => item?.[k] !== due[k]);
    const old = dropOldKeys ? OLD_INDEX_KEYS.filter((k) => item?.[k] !== undefined) : [];
    if (stale.length === 0 && old.length === 0) return false;
    const sets = stale.filter((k) => due[k] !== undefined);
    const removes = [...stale.filter((k) => due[k] === undefined), ...old];
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key,
          UpdateExpression: [
            sets.length > 0 ? `SET ${sets.map((k) => `${k} = :${k}`).join(', ')}` : '',
            removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
          ].join(' '),
          // Every change of placement raises the version: keys derived from the item read stay right.
          ConditionExpression: `attribute_exists(pk) AND ${
            typeof item.version === 'number' ? 'version = :version' : 'attribute_not_exists(version)'
          }`,
          ...(sets.length > 0 || typeof item.version === 'number'
            ? {
                ExpressionAttributeValues: {
                  ...Object.fromEntries(sets.map((k) => [`:${k}`, due[k]])),
                  ...(typeof item.version === 'number' ? { ':version': item.version } : {}),
                },
              }
            : {}),
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
      item = (
        await dynamo().send(new GetCommand({ TableName: config.platformTable, Key, ConsistentRead: true }))
      ).Item;
    }
  }
  if (item) throw new Error(`Device ${String(read.devID)} kept changing while its index keys were migrated`);
  return false;
}

/**
 * Moves device items from before the device indexes (gsi1: devices of a floor, gsi2: devices of an
 * organization, both projecting every attribute) onto gsi3 and gsi4 (keys only), from each item's
 * own floor and organization, keys that went stale included. With `dropOldKeys` it also takes their
 * gsi1/gsi2 keys away: from then on a reading writes no index (until then the code from before keeps
 * listing them). Idempotent and safe beside live traffic: each write is conditioned on the version
 * read (every placement change raises it), and a device changed meanwhile is read again. Answers how
 * many items it rewrote (docs/deploy.md, "Device indexes").
 */
export async function migrateDeviceIndexes(options: { dropOldKeys: boolean }): Promise<number> {
  let migrated = 0;
  const pages = scanItems({
    TableName: config.platformTable,
    FilterExpression: 'entity = :device',
    ExpressionAttributeValues: { ':device': 'device' },
  });
  for await (const items of pages)
    for (const item of items) if (await migrateDeviceItem(item, options.dropOldKeys)) migrated++;
  return migrated;
}

/** The DynamoDB adapter of the registered devices (device calls, ingest and the tree's sweep). */
export const dynamoDevices = {
  get: getDevice,
  getMany: getDevices,
  onFloor: devicesOnFloor,
  ofOrganization: devicesOfOrganization,
  floorDevicesVersion,
  getGroup,
  commit: commitDevices,
  register: registerDevice,
  ownerOf: async (devId: string) => (await getDevice(devId))?.orgID,
  recordLatest,
  noteAlarmOpened,
  recordPortReport,
  moveDevicesOffFloor,
} satisfies DeviceStore & Record<string, unknown>;

/** The users' icon sizes: one item per user, floor and device type. */
export const dynamoIconSizes: IconSizeStore = {
  async get(userId, floorId) {
    const items = await queryAll({
      TableName: config.platformTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.iconSizesPartition(userId, floorId) },
      ConsistentRead: true,
    });
    return Object.fromEntries(
      items.filter((i) => typeof i.value === 'number').map((i) => [String(i.devType), i.value as number]),
    );
  },
  async set(userId, floorId, devType, value, now) {
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: {
          ...keys.iconSize(userId, floorId, devType),
          entity: 'iconsize',
          devType,
          value,
          updatedAt: now,
        },
      }),
    );
  },
};
