import { type AttributeValue, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue } from 'aws-lambda';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { RoleNumber } from '@argentum/contracts';
import type {
  NodeChanges,
  OrganizationTree,
  OrganizationViewText,
  TreeRead,
  TreeStore,
  WriteOutcome,
} from '../domain/tree/ports';
import type { Building, Floor, Organization, TreeNode, TreeNodeKind } from '../domain/tree/tree';
import { mapLimited } from '../lib/concurrency';
import {
  batchGet,
  type Item,
  queryAll,
  type TransactItem,
  type TransactOutcome,
  transactWrite,
} from './dynamo-kit';
import { conflictBackOff, pauseBefore } from '../lib/backoff';
import { keys } from './keys';
import {
  fullSummaryItem,
  nodeDeleted,
  nodeWritten,
  readSummary,
  type StoredSummary,
  storedSummary,
  type SummaryChange,
  summaryRebuild,
  summaryView,
  summaryWrite,
  treeOfSummary,
  viewText,
} from './tree-summary';
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
export async function readOrganizationTree(
  orgId: string,
  options: { consistent?: boolean } = {},
): Promise<TreeRead> {
  const items = await queryAll({
    TableName: config.platformTable,
    ...(options.consistent ? { ConsistentRead: true } : {}),
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

/**
 * Reads the trees of many organizations from their summaries, 100 a request: the round trips do not
 * grow with each organization. Organizations that do not exist or are deleted are left out. A summary
 * that is missing or incomplete (an organization stored before summaries were kept) is read from the
 * organization's partition and rebuilt (unless `rebuild` is false: a reader whose role may not write
 * the table leaves that to one that may); one whose tree outgrew an item is read from the partition.
 */
export async function readOrganizationTrees(
  orgIds: readonly string[],
  { rebuild = true }: { rebuild?: boolean } = {},
): Promise<{ trees: OrganizationTree[] }> {
  const ids = [...new Set(orgIds)];
  const items = await batchGet(config.platformTable, ids.map(keys.orgSummary));
  const summaries = new Map(items.map((item) => [String(item.pk), storedSummary(item)]));
  const trees: OrganizationTree[] = [];
  const unsummarized: [string, StoredSummary][] = [];
  for (const orgId of ids) {
    const summary = summaries.get(keys.orgSummary(orgId).pk) ?? storedSummary(undefined);
    if (summary.state !== 'complete') unsummarized.push([orgId, summary]);
    else {
      const tree = treeOfSummary(orgId, summary.tree);
      if (tree !== 'deleted') trees.push(tree);
    }
  }
  const read = await mapLimited(unsummarized, 16, ([orgId, summary]) =>
    rebuild ? readAndRebuild(orgId, summary) : readLive(orgId),
  );
  trees.push(...read.filter((t): t is OrganizationTree => t !== undefined));
  return { trees };
}

/**
 * What the sidebar shows of many organizations, read as `readOrganizationTrees` reads their trees:
 * each complete summary's view as the JSON text it is stored as (decompressed, not parsed).
 */
export async function readOrganizationViews(orgIds: readonly string[]): Promise<OrganizationViewText[]> {
  const ids = [...new Set(orgIds)];
  const items = await batchGet(config.platformTable, ids.map(keys.orgSummary));
  const byKey = new Map(items.map((item) => [String(item.pk), item]));
  const views: OrganizationViewText[] = [];
  const unsummarized: [string, StoredSummary][] = [];
  for (const orgId of ids) {
    const item = byKey.get(keys.orgSummary(orgId).pk);
    const view = summaryView(item);
    if (view === undefined) unsummarized.push([orgId, storedSummary(item)]);
    else if (view !== 'deleted') views.push(view);
  }
  const read = await mapLimited(unsummarized, 16, ([orgId, summary]) => readAndRebuild(orgId, summary));
  for (const tree of read) if (tree) views.push(viewText(tree));
  return views;
}

export async function getOrganizationTrees(orgIds: readonly string[]): Promise<OrganizationTree[]> {
  return (await readOrganizationTrees(orgIds)).trees;
}

/**
 * Reads an organization's tree from its partition and, unless it outgrew an item, writes its summary,
 * provided no tree write came in between: `seen` (the summary as read before) names the `rev` the
 * rebuild replaces, and every tree write raises it. The partition is read consistently after `seen`,
 * so what it misses changed `rev`, and the rebuild is refused. A rebuild is also refused once the
 * organization is deleted or gone.
 */
/** An organization's tree read from its partition; undefined when it is gone or deleted. */
async function readLive(orgId: string): Promise<OrganizationTree | undefined> {
  const { tree } = await readOrganizationTree(orgId, { consistent: true });
  return tree;
}

async function readAndRebuild(orgId: string, seen: StoredSummary): Promise<OrganizationTree | undefined> {
  const { tree } = await readOrganizationTree(orgId, { consistent: true });
  if (!tree || seen.state === 'overflow') return tree;
  try {
    await transactWrite([stillLive({ kind: 'organization', id: orgId, orgId }), summaryRebuild(tree, seen)]);
  } catch {
    // The read answers from the partition all the same (the organization deleted meanwhile, or a
    // write that came in between, refuses the rebuild: the next reader tries again).
  }
  return tree;
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

/** After a refused conditional write: was the node gone, or changed? */
async function diagnose(ref: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>) {
  const current = await getNode(ref);
  return !current || current.deletedAt
    ? ({ outcome: 'missing' } as const)
    : ({ outcome: 'changed', current } as const);
}

/**
 * A tree write: the node's own writes and conditions (`items`) and the write of its organization's
 * summary for `changes` (stores/tree-summary.ts), read first, all in one transaction, the summary
 * last (callers read refused conditions by index). When another write changed the summary meanwhile
 * (two admins editing one organization's tree), or a concurrent transaction got in the way, it is
 * read again and the write tried again.
 */
async function treeWrite(
  orgId: string,
  items: readonly TransactItem[],
  changes: readonly SummaryChange[],
): Promise<TransactOutcome> {
  for (let attempt = 1; ; attempt++) {
    const summary = summaryWrite(orgId, await readSummary(orgId), changes);
    const all = summary ? [...items, summary] : items;
    const written = await transactWrite(all);
    if (written.outcome === 'written') return written;
    const summaryChanged = summary !== undefined && written.failed.includes(all.length - 1);
    if ((summaryChanged || written.failed.length === 0) && attempt < conflictBackOff.attempts) {
      await pauseBefore(attempt);
      continue;
    }
    return written;
  }
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
    { Put: { TableName: config.platformTable, Item: fullSummaryItem({ org, buildings: [], floors: [] }) } },
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
  const written = await treeWrite(
    building.orgId,
    [
      stillLive({ kind: 'organization', id: building.orgId, orgId: building.orgId }),
      {
        Put: {
          TableName: config.platformTable,
          Item: { ...buildingItem(building), createdAt: now, updatedAt: now },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [
      nodeWritten({
        kind: 'building',
        id: building.buildId,
        name: building.buildName,
        version: building.version,
      }),
    ],
  );
  if (written.outcome === 'written') return 'created';
  if (written.failed.includes(0)) return 'parent-missing';
  throw written.error;
}

/** Creates a floor, provided its organization and building exist and neither is being deleted. */
export async function createFloor(
  floor: Required<Floor>,
  now: string,
): Promise<'created' | 'parent-missing'> {
  const written = await treeWrite(
    floor.orgId,
    [
      stillLive({ kind: 'organization', id: floor.orgId, orgId: floor.orgId }),
      stillLive({ kind: 'building', id: floor.buildId, orgId: floor.orgId }),
      {
        Put: {
          TableName: config.platformTable,
          Item: { ...floorItem(floor), createdAt: now, updatedAt: now },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    [
      nodeWritten(
        {
          kind: 'floor',
          id: floor.floorId,
          buildId: floor.buildId,
          name: floor.floorName,
          version: floor.version,
        },
        floor.floorDevTypes,
      ),
    ],
  );
  if (written.outcome === 'written') return 'created';
  if (written.failed.includes(0) || written.failed.includes(1)) return 'parent-missing';
  throw written.error;
}

/**
 * A write of a live node at the version it was read at, with its summary's entries, in one
 * transaction. When the node changed meanwhile: answered as changed if the caller expects a version,
 * else written over the node as it now is (the last writer wins, as without a version).
 */
async function writeNodeAtVersion(
  node: TreeNode,
  expectedVersion: number | undefined,
  write: (current: TreeNode) => { item: TransactItem; summary: SummaryChange; written: TreeNode },
): Promise<WriteOutcome<TreeNode>> {
  let current = node;
  for (let attempt = 1; ; attempt++) {
    if (current.deletedAt) return { outcome: 'missing' };
    if (expectedVersion !== undefined && current.version !== expectedVersion)
      return { outcome: 'changed', current };
    const { item, summary, written } = write(current);
    const outcome = await treeWrite(node.orgId, [item], [summary]);
    if (outcome.outcome === 'written') return { outcome: 'written', value: written };
    if (!outcome.failed.includes(0)) throw outcome.error;
    const now = await diagnose(node);
    if (now.outcome === 'missing' || attempt >= conflictBackOff.attempts) return now;
    current = now.current;
  }
}

/** A live node's item at `version`, as the condition of a write. */
const atVersion = (version: number) =>
  version === 0
    ? { expression: `${live} AND (attribute_not_exists(version) OR version = :expected)`, expected: 0 }
    : { expression: `${live} AND version = :expected`, expected: version };

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
  return writeNodeAtVersion(node, expectedVersion, (current) => {
    const sets = ['version = :next', 'updatedAt = :now'];
    const condition = atVersion(current.version);
    const values: Record<string, unknown> = {
      ':next': current.version + 1,
      ':now': now,
      ':expected': condition.expected,
    };
    const names: Record<string, string> = {};
    if (changes.name !== undefined) {
      sets.push('#name = :name');
      names['#name'] = nameAttribute[node.kind];
      values[':name'] = changes.name;
    }
    const types = node.kind === 'floor' ? changes.floorDevTypes : undefined;
    if (types !== undefined) {
      sets.push('floorDevTypes = :types');
      values[':types'] = types;
    }
    const written: TreeNode = {
      ...current,
      name: changes.name ?? current.name,
      version: current.version + 1,
    };
    return {
      item: {
        Update: {
          TableName: config.platformTable,
          Key: nodeKey(node),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: condition.expression,
          ExpressionAttributeValues: values,
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        },
      },
      summary: nodeWritten(written, types),
      written,
    };
  });
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
  return writeNodeAtVersion(node, expectedVersion, (current) => {
    const condition = atVersion(current.version);
    return {
      item: {
        Update: {
          TableName: config.platformTable,
          Key: nodeKey(node),
          UpdateExpression: 'SET deletedAt = :now, updatedAt = :now, version = :next',
          ConditionExpression: condition.expression,
          ExpressionAttributeValues: {
            ':now': now,
            ':next': current.version + 1,
            ':expected': condition.expected,
          },
        },
      },
      summary: nodeDeleted(node, now),
      written: { ...current, version: current.version + 1, deletedAt: now },
    };
  });
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

/**
 * Removes a node's item for good (the last step of its sweep). An organization's summary goes with
 * it, in one transaction; a building's or floor's entries left the summary when its delete was
 * committed. Removing a removed node is a no-op.
 */
export async function removeNodeItem(node: Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>) {
  const remove = { Delete: { TableName: config.platformTable, Key: nodeKey(node) } };
  if (node.kind !== 'organization') {
    await dynamo().send(new DeleteCommand(remove.Delete));
    return;
  }
  for (let attempt = 1; ; attempt++) {
    const written = await transactWrite([
      { Delete: { TableName: config.platformTable, Key: keys.orgSummary(node.orgId) } },
      remove,
    ]);
    if (written.outcome === 'written') return;
    if (attempt >= conflictBackOff.attempts) throw written.error;
    await pauseBefore(attempt);
  }
}

/** The DynamoDB adapter of the tree store. */
export const dynamoTreeStore: TreeStore = {
  readOrganizationTree,
  readOrganizationTrees,
  readOrganizationViews,
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
