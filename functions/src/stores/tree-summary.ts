import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { OrganizationTree, OrganizationViewText } from '../domain/tree/ports';
import { type Floor, type OrganizationView, toOrganizationView, type TreeNode } from '../domain/tree/tree';
import { type DeflatedText, deflateText, inflateText, isDeflatedText } from '../lib/gzip-splice';
import { JsonText } from '../lib/json-text';
import type { Item, TransactItem } from './dynamo-kit';
import { keys } from './keys';

/**
 * An organization's tree summary: one item (ORG#{orgId} / SUMMARY) holding what the sidebar shows of
 * the whole tree as one compressed JSON document, so the organizations of a user are read with
 * BatchGetItem (100 a request) instead of one query per organization, and what is read is one binary
 * attribute per organization, not one per node (DynamoDB Local, and the SDK's unmarshalling, pay per
 * attribute; DynamoDB's read units, per 4 KB read). The document is the organization's part of the
 * getUsersOrganisations answer exactly (its `OrganizationView`, which does not depend on the caller's
 * role), stored as a deflated piece (lib/gzip-splice.ts), so the sidebar's read splices the pieces
 * into a gzip answer without inflating, parsing or compressing anything. Its attributes:
 *
 *   viewZ     the JSON of the organization's `OrganizationView`, raw deflate ended by a sync flush,
 *   viewCrc   with its CRC-32
 *   viewBytes and its length; present once the summary is complete (written with the organization,
 *             or rebuilt from the partition by a read that found it missing or in an older form).
 *             Writers read it as a `SummaryTree`.
 *   orgName   the organization's name, to order the views by without decoding them
 *   deletedAt set once the organization's delete is committed
 *   rev       raised by every tree write; a write of `tree` is conditioned on the rev it read, so two
 *             writes never undo each other, and a rebuild on the rev seen before it read the partition
 *   overflow  true: the tree outgrew what one item holds; readers query the partition instead
 *
 * A write of a node and of its summary are one transaction. A write to an organization whose summary
 * is not complete only raises `rev` (creating the item if need be), which refuses any rebuild that
 * read the partition before it.
 */
export interface SummaryTree {
  /** The organization: name, version; `d` is set once its delete is committed. */
  o: [string, number];
  d?: string;
  /** Live buildings: id -> [name, version]. */
  b: Record<string, [string, number]>;
  /** Live floors of live buildings: id -> [buildId, name, version, device types]. */
  f: Record<string, [string, string, number, number[]]>;
}

/** Past this many bytes (deflated) a summary is not stored (an item holds 400 KB, keys and all). */
export const SUMMARY_LIMIT_BYTES = 350_000;

/** A summary as stored: complete (with its tree), or not (missing, begun by a rev only, overflowed). */
export type StoredSummary =
  | { state: 'complete'; rev: number; tree: SummaryTree }
  | { state: 'missing' | 'partial' | 'overflow'; rev: number };

/** The stored view of a summary item, when it has a whole one. */
function viewPiece(item: Item): DeflatedText | undefined {
  const piece = { deflated: item.viewZ, crc32: item.viewCrc, bytes: item.viewBytes };
  return isDeflatedText(piece) ? piece : undefined;
}

export function storedSummary(item: Item | undefined): StoredSummary {
  if (!item) return { state: 'missing', rev: 0 };
  const rev = typeof item.rev === 'number' ? item.rev : 0;
  if (item.overflow === true) return { state: 'overflow', rev };
  const piece = viewPiece(item);
  if (!piece) return { state: 'partial', rev };
  const view = JSON.parse(inflateText(piece)) as OrganizationView;
  const tree: SummaryTree = { o: [view.orgName, view.version], b: {}, f: {} };
  if (typeof item.deletedAt === 'string') tree.d = item.deletedAt;
  for (const building of view.buildData) {
    tree.b[building._id] = [building.buildName, building.version];
    for (const f of building.floors) tree.f[f._id] = [f.buildID, f.floorName, f.version, f.floorDevTypes];
  }
  return { state: 'complete', rev, tree };
}

/**
 * What the sidebar reads of a summary: its view's JSON text, as stored (deflated); 'deleted' once the
 * organization's delete is committed; undefined when not complete (read the partition instead).
 */
export function summaryView(item: Item | undefined): OrganizationViewText | 'deleted' | undefined {
  const piece = item && item.overflow !== true ? viewPiece(item) : undefined;
  if (!item || !piece) return undefined;
  if (item.deletedAt !== undefined) return 'deleted';
  return { orgName: String(item.orgName), view: new JsonText(piece) };
}

/** The view of a tree as JSON text (what a summary stores). */
export const viewText = ({ org, buildings, floors }: OrganizationTree): OrganizationViewText => ({
  orgName: org.orgName,
  view: new JsonText(JSON.stringify(toOrganizationView(org, buildings, floors))),
});

/** The summary of an organization, read consistently (writers read it before they change it). */
export async function readSummary(orgId: string): Promise<StoredSummary> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: keys.orgSummary(orgId), ConsistentRead: true }),
  );
  return storedSummary(Item);
}

export function summaryOfTree(tree: OrganizationTree): SummaryTree {
  const summary: SummaryTree = { o: [tree.org.orgName, tree.org.version ?? 0], b: {}, f: {} };
  for (const b of tree.buildings) summary.b[b.buildId] = [b.buildName, b.version ?? 0];
  for (const f of tree.floors)
    summary.f[f.floorId] = [f.buildId, f.floorName, f.version ?? 0, f.floorDevTypes];
  return summary;
}

/** The tree a summary describes; 'deleted' once the organization's delete is committed. */
export function treeOfSummary(orgId: string, summary: SummaryTree): OrganizationTree | 'deleted' {
  return summary.d !== undefined ? 'deleted' : nodesOfSummary(orgId, summary);
}

/** The nodes a summary holds, whether or not its organization is deleted. */
function nodesOfSummary(orgId: string, summary: SummaryTree): OrganizationTree {
  const buildings = Object.entries(summary.b).map(([buildId, [buildName, version]]) => ({
    orgId,
    buildId,
    buildName,
    version,
  }));
  const floors: Floor[] = [];
  for (const [floorId, [buildId, floorName, version, floorDevTypes]] of Object.entries(summary.f)) {
    if (summary.b[buildId]) {
      floors.push({ orgId, buildId, floorId, floorName, floorDevTypes, editMode: false, version });
    }
  }
  return { org: { orgId, orgName: summary.o[0], version: summary.o[1] }, buildings, floors };
}

/** A change of a summary's tree (in place). */
export type SummaryChange = (summary: SummaryTree) => void;

/** A node as it now is (name, version; a floor's device types when given). */
export const nodeWritten =
  (
    node: Pick<TreeNode, 'kind' | 'id' | 'buildId' | 'name' | 'version'>,
    floorDevTypes?: number[],
  ): SummaryChange =>
  (summary) => {
    if (node.kind === 'organization') summary.o = [node.name, node.version];
    else if (node.kind === 'building') summary.b[node.id] = [node.name, node.version];
    else if (summary.b[node.buildId ?? ''] !== undefined) {
      // (Under a building deleted meanwhile, a floor written last stays out: it is hidden anyway.)
      const types = floorDevTypes ?? summary.f[node.id]?.[3] ?? [];
      summary.f[node.id] = [node.buildId ?? '', node.name, node.version, types];
    }
  };

/** A floor's device types. */
export const floorTypesWritten =
  (floorId: string, types: readonly number[]): SummaryChange =>
  (summary) => {
    const floor = summary.f[floorId];
    if (floor) floor[3] = [...types];
  };

/** A committed delete: the organization is marked; a building goes with its floors; a floor goes. */
export const nodeDeleted =
  (node: Pick<TreeNode, 'kind' | 'id'>, now: string): SummaryChange =>
  (summary) => {
    if (node.kind === 'organization') {
      summary.d = now;
      return;
    }
    if (node.kind === 'building') {
      summary.b = Object.fromEntries(Object.entries(summary.b).filter(([id]) => id !== node.id));
    }
    summary.f = Object.fromEntries(
      Object.entries(summary.f).filter(([id, [buildId]]) => id !== node.id && buildId !== node.id),
    );
  };

/** The deflated view of a summary's tree, as a summary item stores it. */
export const packedView = (orgId: string, tree: SummaryTree) =>
  deflateText(viewText(nodesOfSummary(orgId, tree)).view.text);

/** The complete summary item of `tree` at `rev`, or the overflow mark when it is too large. */
function summaryItem(orgId: string, tree: SummaryTree, rev: number): Item {
  const packed = packedView(orgId, tree);
  const base = {
    ...keys.orgSummary(orgId),
    entity: 'treesummary',
    orgId,
    rev,
    orgName: tree.o[0],
    ...(tree.d !== undefined ? { deletedAt: tree.d } : {}),
  };
  return packed.deflated.byteLength > SUMMARY_LIMIT_BYTES
    ? { ...base, overflow: true }
    : { ...base, viewZ: packed.deflated, viewCrc: packed.crc32, viewBytes: packed.bytes };
}

/** The summary of a new organization's tree, or of one rebuilt from its partition. */
export const fullSummaryItem = (tree: OrganizationTree, rev = 1): Item =>
  summaryItem(tree.org.orgId, summaryOfTree(tree), rev);

/** The condition that the summary is still as it was read (at `rev`, or absent). */
function unchangedSince(read: StoredSummary) {
  if (read.state === 'missing') return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (read.rev === 0) return { ConditionExpression: 'attribute_not_exists(rev)' };
  return { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': read.rev } };
}

/**
 * The write of a summary, as a transaction item, for `changes` applied to the summary as `read`:
 * its tree rewritten, conditioned on its rev (refused if anyone wrote it since), when complete;
 * otherwise only its rev raised, provided it is still not complete. Undefined when the changes
 * change nothing.
 */
export function summaryWrite(
  orgId: string,
  read: StoredSummary,
  changes: readonly SummaryChange[],
): TransactItem | undefined {
  if (read.state !== 'complete') {
    return {
      Update: {
        TableName: config.platformTable,
        Key: keys.orgSummary(orgId),
        UpdateExpression: 'ADD rev :one',
        // Still not complete: a rebuild may have completed it since it was read, and then this write
        // must change its tree (the write is refused and tried again on the summary as it now is).
        ConditionExpression: 'attribute_not_exists(#view)',
        ExpressionAttributeNames: { '#view': 'viewZ' },
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
  const before = JSON.stringify(read.tree);
  const tree = JSON.parse(before) as SummaryTree;
  for (const change of changes) change(tree);
  if (JSON.stringify(tree) === before) return undefined;
  return {
    Put: {
      TableName: config.platformTable,
      Item: summaryItem(orgId, tree, read.rev + 1),
      ...unchangedSince(read),
    },
  };
}

/** The rebuild of a summary that was `read` (not complete) from the tree read after it, conditioned alike. */
export function summaryRebuild(tree: OrganizationTree, read: StoredSummary): TransactItem {
  return {
    Put: {
      TableName: config.platformTable,
      Item: fullSummaryItem(tree, read.rev + 1),
      ...unchangedSince(read),
    },
  };
}

/**
 * The summary writes for floors' new device types (a device commit), one per organization, read
 * first: part of the commit's transaction, refused like it if a tree write came in between. None for
 * an organization whose floors' types are what its summary holds already.
 */
export async function floorTypesWrites(
  changes: readonly { floor: Pick<TreeNode, 'orgId' | 'id'>; floorDevTypes: readonly number[] }[],
): Promise<TransactItem[]> {
  const byOrg = new Map<string, SummaryChange[]>();
  for (const { floor, floorDevTypes } of changes) {
    const list = byOrg.get(floor.orgId) ?? [];
    list.push(floorTypesWritten(floor.id, floorDevTypes));
    byOrg.set(floor.orgId, list);
  }
  const writes = await Promise.all(
    [...byOrg].map(async ([orgId, list]) => summaryWrite(orgId, await readSummary(orgId), list)),
  );
  return writes.filter((w): w is TransactItem => w !== undefined);
}
