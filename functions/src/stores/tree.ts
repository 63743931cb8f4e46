import { type AttributeValue, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue } from 'aws-lambda';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { RoleNumber } from '@argentum/contracts';
import type { NodeChanges, OrganizationTree, TreeRead, TreeStore, WriteOutcome } from '../domain/tree/ports';
import type { Building, Floor, Organization, TreeNode, TreeNodeKind } from '../domain/tree/tree';
import { mapLimited } from '../lib/concurrency';
import { type Item, queryAll, transactWrite } from './dynamo-kit';
import { keys } from './keys';
import { addMembershipItems } from './users';

export const orgItem = (org: Organization) => ({
  ...keys.org(org.orgId),
  ...keys.node(org.orgId, 'ORG'),
  entity: 'org',
  ...org,
});

export const buildingItem = (building: Building) => ({
  ...keys.building(building.orgId, building.buildId),
  ...keys.node(building.buildId, 'BUILDING'),
  entity: 'building',
  ...building,
});

export const floorItem = (floor: Floor) => ({
  ...keys.floor(floor.orgId, floor.buildId, floor.floorId),
  ...keys.node(floor.floorId, 'FLOOR'),
  entity: 'floor',
  ...floor,
});

const kindOfEntity: Record<string, TreeNodeKind> = {
  org: 'organization',
  building: 'building',
  floor: 'floor',
};

/** The attribute that holds a node's name. */
const nameAttribute: Record<TreeNodeKind, 'orgName' | 'buildName' | 'floorName'> = {
  organization: 'orgName',
  building: 'buildName',
  floor: 'floorName',
};

const versionOf = (item: Item) => (typeof item.version === 'number' ? item.version : 0);
const isDeleted = (item: Item) => typeof item.deletedAt === 'string';

function nodeFromItem(item: Item): TreeNode | undefined {
  const kind = kindOfEntity[String(item.entity)];
  if (!kind) return undefined;
  const id = String(kind === 'organization' ? item.orgId : kind === 'building' ? item.buildId : item.floorId);
  return {
    kind,
    id,
    orgId: String(item.orgId),
    ...(kind === 'organization' ? {} : { buildId: String(item.buildId) }),
    name: String(item[nameAttribute[kind]] ?? ''),
    version: versionOf(item),
    ...(isDeleted(item) ? { deletedAt: String(item.deletedAt) } : {}),
  };
}

/** The table key of a node. */
export function nodeKey(node: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>) {
  if (node.kind === 'organization') return keys.org(node.orgId);
  if (node.kind === 'building') return keys.building(node.orgId, node.id);
  return keys.floor(node.orgId, node.buildId ?? '', node.id);
}

const TREE_ATTRIBUTES = [
  'entity',
  'orgId',
  'buildId',
  'floorId',
  'orgName',
  'buildName',
  'floorName',
  'floorDevTypes',
  'editMode',
  'version',
  'deletedAt',
] as const;

/** Reads one organization's whole tree: a single partition, so one (paged) query. */
export async function readOrganizationTree(orgId: string): Promise<TreeRead> {
  const items = await queryAll({
    TableName: config.platformTable,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.orgPartition(orgId) },
    // Only what the tree shows: a large tree reads (and unmarshals) far less.
    ProjectionExpression: TREE_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(TREE_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
  });
  const tombstones = items
    .filter(isDeleted)
    .map(nodeFromItem)
    .filter((n): n is TreeNode => n !== undefined);
  const orgRow = items.find((i) => i.entity === 'org');
  if (!orgRow || isDeleted(orgRow)) return { tree: undefined, tombstones };

  const deletedBuildings = new Set(tombstones.filter((t) => t.kind === 'building').map((t) => t.id));
  const buildings: Building[] = [];
  const floors: Floor[] = [];
  for (const i of items) {
    if (isDeleted(i)) continue;
    if (i.entity === 'building') {
      buildings.push({
        orgId,
        buildId: String(i.buildId),
        buildName: String(i.buildName),
        version: versionOf(i),
      });
    } else if (i.entity === 'floor' && !deletedBuildings.has(String(i.buildId))) {
      floors.push({
        orgId,
        buildId: String(i.buildId),
        floorId: String(i.floorId),
        floorName: String(i.floorName),
        floorDevTypes: Array.isArray(i.floorDevTypes) ? i.floorDevTypes.map(Number) : [],
        editMode: i.editMode === true,
        version: versionOf(i),
      });
    }
  }
  return {
    tree: { org: { orgId, orgName: String(orgRow.orgName), version: versionOf(orgRow) }, buildings, floors },
    tombstones,
  };
}

export async function getOrganizationTree(orgId: string): Promise<OrganizationTree | undefined> {
  return (await readOrganizationTree(orgId)).tree;
}

/** Reads the trees of many organizations in parallel; organizations that do not exist are left out. */
export async function readOrganizationTrees(
  orgIds: readonly string[],
): Promise<{ trees: OrganizationTree[]; tombstones: TreeNode[] }> {
  const reads = await mapLimited([...new Set(orgIds)], 16, readOrganizationTree);
  return {
    trees: reads.map((r) => r.tree).filter((t): t is OrganizationTree => t !== undefined),
    tombstones: reads.flatMap((r) => r.tombstones),
  };
}

export async function getOrganizationTrees(orgIds: readonly string[]): Promise<OrganizationTree[]> {
  return (await readOrganizationTrees(orgIds)).trees;
}

/**
 * Finds any node by its id, deleted ones included (callers decide). The index gives the key; the
 * node itself is then read consistently, so its version and state are current.
 */
export async function findNode(id: string): Promise<TreeNode | undefined> {
  const { Items } = await dynamo().send(
    new QueryCommand({
      TableName: config.platformTable,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      // Every node kind shares the lookup partition NODE#{id}; the sort key (its kind) is not needed.
      ExpressionAttributeValues: { ':pk': keys.node(id, 'ORG').gsi1pk },
      ProjectionExpression: 'pk, sk',
    }),
  );
  const key = Items?.[0];
  if (!key) return undefined;
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.platformTable,
      Key: { pk: key.pk, sk: key.sk },
      ConsistentRead: true,
    }),
  );
  return Item ? nodeFromItem(Item) : undefined;
}

/** Reads a node by its key, consistently; undefined when it is not stored. */
export async function getNode(
  ref: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>,
): Promise<TreeNode | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: nodeKey(ref), ConsistentRead: true }),
  );
  return Item ? nodeFromItem(Item) : undefined;
}

const live = 'attribute_exists(pk) AND attribute_not_exists(deletedAt)';

function versionCondition(expected: number | undefined) {
  if (expected === undefined) return { expression: '', values: {} };
  return expected === 0
    ? {
        expression: ' AND (attribute_not_exists(version) OR version = :expected)',
        values: { ':expected': 0 },
      }
    : { expression: ' AND version = :expected', values: { ':expected': expected } };
}

/** After a refused conditional write: was the node gone, or changed? */
async function diagnose(ref: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>) {
  const current = await getNode(ref);
  return !current || current.deletedAt
    ? ({ outcome: 'missing' } as const)
    : ({ outcome: 'changed', current } as const);
}

/** Creates an organization and adds it to its creator's organizations, in one transaction. */
export async function createOrganization(
  org: Required<Organization>,
  creator: { userId: string; role: RoleNumber },
  now: string,
): Promise<'created' | 'creator-missing'> {
  const written = await transactWrite([
    {
      Put: {
        TableName: config.platformTable,
        Item: { ...orgItem(org), createdAt: now, updatedAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...addMembershipItems(creator.userId, org.orgId, creator.role, now),
  ]);
  if (written.outcome === 'written') return 'created';
  if (written.failed.includes(1)) return 'creator-missing';
  throw written.error;
}

/** A condition that the node exists and is not deleted, as a transaction item. */
const stillLive = (ref: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>) => ({
  ConditionCheck: { TableName: config.platformTable, Key: nodeKey(ref), ConditionExpression: live },
});

/** Creates a building, provided its organization exists and is not being deleted. */
export async function createBuilding(
  building: Required<Building>,
  now: string,
): Promise<'created' | 'parent-missing'> {
  const written = await transactWrite([
    stillLive({ kind: 'organization', id: building.orgId, orgId: building.orgId }),
    {
      Put: {
        TableName: config.platformTable,
        Item: { ...buildingItem(building), createdAt: now, updatedAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  if (written.outcome === 'written') return 'created';
  if (written.failed.includes(0)) return 'parent-missing';
  throw written.error;
}

/** Creates a floor, provided its organization and building exist and neither is being deleted. */
export async function createFloor(
  floor: Required<Floor>,
  now: string,
): Promise<'created' | 'parent-missing'> {
  const written = await transactWrite([
    stillLive({ kind: 'organization', id: floor.orgId, orgId: floor.orgId }),
    stillLive({ kind: 'building', id: floor.buildId, orgId: floor.orgId }),
    {
      Put: {
        TableName: config.platformTable,
        Item: { ...floorItem(floor), createdAt: now, updatedAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  if (written.outcome === 'written') return 'created';
  if (written.failed.includes(0) || written.failed.includes(1)) return 'parent-missing';
  throw written.error;
}

/**
 * Changes a live node and raises its version, provided it is still at `expectedVersion` (when given).
 * Answers the node as written.
 */
export async function updateNode(
  node: TreeNode,
  changes: NodeChanges,
  expectedVersion: number | undefined,
  now: string,
): Promise<WriteOutcome<TreeNode>> {
  const sets = ['version = if_not_exists(version, :zero) + :one', 'updatedAt = :now'];
  const values: Record<string, unknown> = { ':zero': 0, ':one': 1, ':now': now };
  const names: Record<string, string> = {};
  if (changes.name !== undefined) {
    sets.push('#name = :name');
    names['#name'] = nameAttribute[node.kind];
    values[':name'] = changes.name;
  }
  if (changes.floorDevTypes !== undefined && node.kind === 'floor') {
    sets.push('floorDevTypes = :types');
    values[':types'] = changes.floorDevTypes;
  }
  const version = versionCondition(expectedVersion);
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: nodeKey(node),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: live + version.expression,
        ExpressionAttributeValues: { ...values, ...version.values },
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    const written = Attributes ? nodeFromItem(Attributes) : undefined;
    if (!written) return { outcome: 'missing' };
    return { outcome: 'written', value: written };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return diagnose(node);
    throw error;
  }
}

/**
 * Commits a delete in one atomic write: the node is marked deleted, so reads hide it and everything
 * under it at once and creates under it are refused. The sweep then removes what lies under it.
 */
export async function markDeleted(
  node: TreeNode,
  expectedVersion: number | undefined,
  now: string,
): Promise<WriteOutcome<TreeNode>> {
  const version = versionCondition(expectedVersion);
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: nodeKey(node),
        UpdateExpression:
          'SET deletedAt = :now, updatedAt = :now, version = if_not_exists(version, :zero) + :one',
        ConditionExpression: live + version.expression,
        ExpressionAttributeValues: { ':now': now, ':zero': 0, ':one': 1, ...version.values },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const written = Attributes ? nodeFromItem(Attributes) : undefined;
    if (!written) return { outcome: 'missing' };
    return { outcome: 'written', value: written };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return diagnose(node);
    throw error;
  }
}

/**
 * Hands a node whose delete is committed to the sweeper again: any write of the marked item is a new
 * stream record. Once the node is swept (its item gone) there is nothing to hand over.
 */
export async function requestSweep(node: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>, now: string) {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: nodeKey(node),
        UpdateExpression: 'SET sweepRequestedAt = :now',
        ConditionExpression: 'attribute_exists(deletedAt)',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The node a stream record's image shows (as Lambda delivers it), if the item is a tree node. */
export function nodeFromStreamImage(image: Record<string, StreamAttributeValue>): TreeNode | undefined {
  return nodeFromItem(unmarshall(image as Record<string, AttributeValue>));
}

/** The floors stored under an organization, or under one of its buildings (deleted ones included). */
export async function listFloors(orgId: string, buildId?: string): Promise<TreeNode[]> {
  const prefix = buildId === undefined ? 'FLOOR#' : `FLOOR#${buildId}#`;
  const items = await queryAll({
    TableName: config.platformTable,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.orgPartition(orgId), ':prefix': prefix },
  });
  return items.map(nodeFromItem).filter((n): n is TreeNode => n !== undefined);
}

/** The buildings stored under an organization (deleted ones included). */
export async function listBuildings(orgId: string): Promise<TreeNode[]> {
  const items = await queryAll({
    TableName: config.platformTable,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.orgPartition(orgId), ':prefix': 'BUILDING#' },
  });
  return items.map(nodeFromItem).filter((n): n is TreeNode => n !== undefined);
}

/** Removes a node's item for good (the last step of its sweep). Removing a removed node is a no-op. */
export async function removeNodeItem(node: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>) {
  await dynamo().send(new DeleteCommand({ TableName: config.platformTable, Key: nodeKey(node) }));
}

/** The DynamoDB adapter of the tree store. */
export const dynamoTreeStore: TreeStore = {
  readOrganizationTree,
  readOrganizationTrees,
  findNode,
  getNode,
  createOrganization,
  createBuilding,
  createFloor,
  updateNode,
  markDeleted,
  requestSweep,
  listFloors,
  listBuildings,
  removeNodeItem,
};
