import type { RoleNumber } from '@argentum/contracts';
import type { FileStore } from '../files/ports';
import type { JsonText } from '../../lib/json-text';
import type { Building, Floor, Organization, OrganizationView, TreeNode } from './tree';

/** One organization's tree as stored. */
export interface OrganizationTree {
  org: Organization;
  buildings: Building[];
  floors: Floor[];
}

/** An organization's view as JSON text, and its name. */
export interface OrganizationViewText {
  orgName: string;
  view: JsonText<OrganizationView>;
}

/** One organization's tree, with the nodes whose delete is committed but not yet swept. */
export interface TreeRead {
  /** Undefined when the organization does not exist or is deleted. */
  tree: OrganizationTree | undefined;
  /** Deleted nodes the sweeper has not removed yet; reads hide them and everything under them. */
  tombstones: TreeNode[];
}

/** Outcome of a write that depends on a node being present and unchanged. */
export type WriteOutcome<T> =
  | { outcome: 'written'; value: T }
  | { outcome: 'missing' } // no such node, or it has been deleted
  | { outcome: 'changed'; current: TreeNode }; // someone else changed it since the version given

export interface NodeChanges {
  name?: string;
  /** Floors only. */
  floorDevTypes?: number[];
}

export type NodeRef = Pick<TreeNode, 'kind' | 'id' | 'orgId' | 'buildId'>;

/** Where the tree lives (the DynamoDB adapter is stores/tree.ts). */
export interface TreeStore {
  readOrganizationTree(orgId: string): Promise<TreeRead>;
  /**
   * Many organizations' trees, in round trips that do not grow with each organization (the adapter
   * reads their summaries); organizations that do not exist or are deleted are left out. A reader
   * that may not write the store says `rebuild: false`: what it reads is not kept for the next.
   */
  readOrganizationTrees(
    orgIds: readonly string[],
    options?: { rebuild?: boolean },
  ): Promise<{ trees: OrganizationTree[] }>;
  /**
   * What the sidebar shows of the same organizations, each as the JSON text of its view (what a caller
   * sees of a tree does not depend on their role in it), with its name to order them by.
   */
  readOrganizationViews(orgIds: readonly string[]): Promise<OrganizationViewText[]>;
  /** Any node by its id, deleted ones included (callers decide); read consistently. */
  findNode(id: string): Promise<TreeNode | undefined>;
  getNode(ref: NodeRef): Promise<TreeNode | undefined>;
  /** Creates an organization and makes its creator a member with `creatorRole`, in one transaction. */
  createOrganization(
    org: Required<Organization>,
    creator: { userId: string; role: RoleNumber },
    now: string,
  ): Promise<'created' | 'creator-missing'>;
  createBuilding(building: Required<Building>, now: string): Promise<'created' | 'parent-missing'>;
  createFloor(floor: Required<Floor>, now: string): Promise<'created' | 'parent-missing'>;
  /** Changes a live node and raises its version, provided it is still at `expectedVersion` (when given). */
  updateNode(
    node: TreeNode,
    changes: NodeChanges,
    expectedVersion: number | undefined,
    now: string,
  ): Promise<WriteOutcome<TreeNode>>;
  /**
   * Commits a delete in one atomic write (the node is marked deleted). The write is what hands the
   * node to the sweeper (through the table's stream).
   */
  markDeleted(
    node: TreeNode,
    expectedVersion: number | undefined,
    now: string,
  ): Promise<WriteOutcome<TreeNode>>;
  /** Hands a node whose delete is committed to the sweeper again; a no-op once it is swept. */
  requestSweep(node: NodeRef, now: string): Promise<void>;
  /** The floors under an organization, or one of its buildings (deleted ones included). */
  listFloors(orgId: string, buildId?: string): Promise<TreeNode[]>;
  listBuildings(orgId: string): Promise<TreeNode[]>;
  /** Removes a node's item for good; a no-op when it is gone. */
  removeNodeItem(node: NodeRef): Promise<void>;
}

/** What the sweep of a deleted node removes besides the tree's own items. */
export interface SweepPorts {
  tree: TreeStore;
  /** Takes every device off a floor (they go back to the organization's unplaced devices). */
  devices: { moveDevicesOffFloor(floorId: string, now: string): Promise<number> };
  /** Removes a floor's plan and its renditions (domain/files/keys.ts). */
  files: Pick<FileStore, 'delete'>;
  /** Takes an organization out of its members' memberships. */
  members: {
    memberIds(orgId: string): Promise<string[]>;
    leaveOrganization(userId: string, orgId: string): Promise<void>;
  };
  clock: { now(): Date };
  logger: { log(level: 'error', message: string, fields?: Record<string, unknown>): void };
}
