import type { OrganizationTree } from '../domain/tree/ports';
import type { Building, Floor, TreeNode } from '../domain/tree/tree';
import { config } from '../config';
import type { Item, TransactItem } from './dynamo-kit';
import { keys } from './keys';

/**
 * An organization's tree summary: one item (ORG#{orgId} / SUMMARY) holding what the sidebar shows of
 * the whole tree, so the organizations of a user are read with BatchGetItem (100 a request) instead
 * of one query per organization. Every tree write changes it in the same transaction as the node it
 * writes; each entry is a top-level attribute, so a write sets or removes its own entries without
 * reading the item and two writes to different nodes never undo each other:
 *
 *   O           {n: orgName, v: version}    present once the summary is complete (created with the
 *                                            organization, or rebuilt by the read that found it missing)
 *   D           deletedAt                   the organization's delete is committed: it is hidden
 *   B_{buildId} {n: buildName, v: version}  a live building
 *   F_{floorId} {b: buildId, n: floorName, v: version}  a live floor (hidden while its building is not)
 *   T_{floorId} [device types]              a floor's device types (written by device commits too)
 *   rev         raised by every write       a rebuild is written only if no write came in between
 *   overflow    true                        the tree outgrew an item (400 KB): readers query the partition
 */

const ORG = 'O';
const DELETED = 'D';
const REV = 'rev';
const OVERFLOW = 'overflow';
const buildingAttr = (buildId: string) => `B_${buildId}`;
const floorAttr = (floorId: string) => `F_${floorId}`;
const typesAttr = (floorId: string) => `T_${floorId}`;

interface OrgEntry {
  n: string;
  v: number;
}
interface BuildingEntry {
  n: string;
  v: number;
}
interface FloorEntry {
  b: string;
  n: string;
  v: number;
}

export interface SummaryChange {
  set?: Record<string, unknown>;
  remove?: string[];
}

/** The summary's entries for a node as it now is (name and version). */
export function nodeEntry(
  node: Pick<TreeNode, 'kind' | 'id' | 'buildId' | 'name' | 'version'>,
): SummaryChange {
  if (node.kind === 'organization') return { set: { [ORG]: { n: node.name, v: node.version } } };
  if (node.kind === 'building')
    return { set: { [buildingAttr(node.id)]: { n: node.name, v: node.version } } };
  return { set: { [floorAttr(node.id)]: { b: node.buildId ?? '', n: node.name, v: node.version } } };
}

/** A floor's device types in the summary. */
export const floorTypesEntry = (floorId: string, types: readonly number[]): SummaryChange => ({
  set: { [typesAttr(floorId)]: [...types] },
});

/**
 * What a committed delete changes: a deleted organization is marked (its summary goes with its item,
 * when swept); a deleted building's or floor's entries go (a building's floors are hidden with it).
 */
export function deletedEntry(node: Pick<TreeNode, 'kind' | 'id'>, now: string): SummaryChange {
  if (node.kind === 'organization') return { set: { [DELETED]: now } };
  if (node.kind === 'building') return { remove: [buildingAttr(node.id)] };
  return { remove: [floorAttr(node.id), typesAttr(node.id)] };
}

/** The entries a swept node leaves behind (those of floors under a deleted building, say). */
export function sweptEntry(node: Pick<TreeNode, 'kind' | 'id'>): SummaryChange {
  if (node.kind === 'building') return { remove: [buildingAttr(node.id)] };
  if (node.kind === 'floor') return { remove: [floorAttr(node.id), typesAttr(node.id)] };
  return {};
}

const merge = (changes: readonly SummaryChange[]): SummaryChange => ({
  set: Object.assign({}, ...changes.map((c) => c.set ?? {})) as Record<string, unknown>,
  remove: changes.flatMap((c) => c.remove ?? []),
});

/**
 * The update of an organization's summary as a transaction item: sets and removes its entries and
 * raises `rev`. `onlyIfStored` makes it a no-op-or-refusal on a summary that is gone (the sweep).
 */
export function summaryUpdate(
  orgId: string,
  changes: SummaryChange | readonly SummaryChange[],
  options: { onlyIfStored?: boolean } = {},
): TransactItem & { Update: object } {
  const { set = {}, remove = [] } = Array.isArray(changes)
    ? merge(changes as readonly SummaryChange[])
    : (changes as SummaryChange);
  const names: Record<string, string> = { '#rev': REV };
  const values: Record<string, unknown> = { ':one': 1 };
  const sets = Object.entries(set).map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  return {
    Update: {
      TableName: config.platformTable,
      Key: keys.orgSummary(orgId),
      UpdateExpression: [
        sets.length > 0 ? `SET ${sets.join(', ')}` : '',
        removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
        'ADD #rev :one',
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ...(options.onlyIfStored ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
    },
  };
}

/** The device types of floors changed by one commit, as one summary update per organization. */
export function floorTypesUpdates(
  changes: readonly { floor: Pick<TreeNode, 'orgId' | 'id'>; floorDevTypes: readonly number[] }[],
): TransactItem[] {
  const byOrg = new Map<string, SummaryChange[]>();
  for (const { floor, floorDevTypes } of changes) {
    const list = byOrg.get(floor.orgId) ?? [];
    list.push(floorTypesEntry(floor.id, floorDevTypes));
    byOrg.set(floor.orgId, list);
  }
  return [...byOrg].map(([orgId, list]) => summaryUpdate(orgId, list));
}

/** The complete summary of a tree, as stored: for a new organization, the demo seed and rebuilds. */
export function summaryItem(tree: OrganizationTree, rev = 1): Item {
  const item: Item = {
    ...keys.orgSummary(tree.org.orgId),
    entity: 'treesummary',
    orgId: tree.org.orgId,
    [ORG]: { n: tree.org.orgName, v: tree.org.version ?? 0 },
    [REV]: rev,
  };
  for (const b of tree.buildings) item[buildingAttr(b.buildId)] = { n: b.buildName, v: b.version ?? 0 };
  for (const f of tree.floors) {
    item[floorAttr(f.floorId)] = { b: f.buildId, n: f.floorName, v: f.version ?? 0 };
    item[typesAttr(f.floorId)] = [...f.floorDevTypes];
  }
  return item;
}

/** A stored summary item's `rev` (0 when it has none) and whether it overflowed. */
export const summaryState = (item: Item | undefined) => ({
  stored: item !== undefined,
  rev: typeof item?.[REV] === 'number' ? item[REV] : 0,
  overflow: item?.[OVERFLOW] === true,
});

/** The mark of a summary whose tree does not fit an item: readers query the partition instead. */
export const overflowItem = (orgId: string, rev: number): Item => ({
  ...keys.orgSummary(orgId),
  entity: 'treesummary',
  orgId,
  [OVERFLOW]: true,
  [REV]: rev,
});

/**
 * The tree a summary item describes: 'deleted' when the organization's delete is committed,
 * undefined when the summary cannot be used (missing, incomplete, or overflowed: read the partition).
 */
export function treeFromSummary(
  orgId: string,
  item: Item | undefined,
): OrganizationTree | 'deleted' | undefined {
  if (!item || item[OVERFLOW] === true) return undefined;
  if (typeof item[DELETED] === 'string') return 'deleted';
  const org = item[ORG] as OrgEntry | undefined;
  if (!org || typeof org !== 'object') return undefined;
  const buildings: Building[] = [];
  const floorEntries: [string, FloorEntry][] = [];
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith('B_')) {
      const entry = value as BuildingEntry;
      buildings.push({ orgId, buildId: name.slice(2), buildName: String(entry.n), version: Number(entry.v) });
    } else if (name.startsWith('F_')) {
      floorEntries.push([name.slice(2), value as FloorEntry]);
    }
  }
  const live = new Set(buildings.map((b) => b.buildId));
  const floors: Floor[] = [];
  for (const [floorId, entry] of floorEntries) {
    if (!live.has(entry.b)) continue;
    const types = item[typesAttr(floorId)];
    floors.push({
      orgId,
      buildId: entry.b,
      floorId,
      floorName: String(entry.n),
      floorDevTypes: Array.isArray(types) ? types.map(Number) : [],
      editMode: false,
      version: Number(entry.v),
    });
  }
  return { org: { orgId, orgName: String(org.n), version: Number(org.v) }, buildings, floors };
}
