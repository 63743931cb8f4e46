import { randomUUID } from 'node:crypto';
import * as store from '../../stores/tree';
import { conflict, forbidden, notFound, unauthenticated, validationError } from '../errors';
import { Role } from '@argentum/events/contracts';
import type { AuthUser } from '../users/user';
import {
  CHANGED_MEANWHILE_MESSAGE,
  EMPTY_NAME_MESSAGES,
  ITEM_NOT_FOUND_MESSAGE,
  NOT_FOUND_MESSAGES,
  WRONG_TYPE_MESSAGE,
} from './messages';
import { type SweepOptions, sweepDeleted } from './sweep';
import {
  type BuildingView,
  type FloorView,
  type OrganizationView,
  type TreeNode,
  type TreeNodeKind,
  toBuildingView,
  toFloorView,
  toOrganizationView,
} from './tree';

/**
 * Editing the tree. Who may edit: an admin (role 2) or higher, and only inside the organizations on
 * their own list; the platform owner is no exception. Every write names the state it expects, so
 * two admins editing at once never silently undo each other.
 */

const now = () => new Date().toISOString();

function assertMayEdit(user: AuthUser, orgId: string): void {
  if (user.role < Role.admin || !user.orgIds.includes(orgId)) throw forbidden();
}

/** A name as stored: trimmed, and never empty. */
function validName(kind: TreeNodeKind, value: string | undefined): string {
  const name = (value ?? '').trim();
  if (name === '') throw validationError(EMPTY_NAME_MESSAGES[kind]);
  return name;
}

/** A live node the user may edit; unknown and deleted nodes are 404, other organizations' 403. */
async function editableNode(user: AuthUser, id: string, kind?: TreeNodeKind): Promise<TreeNode> {
  const node = await store.findNode(id);
  if (!node) throw notFound(kind ? NOT_FOUND_MESSAGES[kind] : ITEM_NOT_FOUND_MESSAGE);
  assertMayEdit(user, node.orgId);
  if (node.deletedAt) throw notFound(NOT_FOUND_MESSAGES[node.kind]);
  if (kind && node.kind !== kind) throw notFound(NOT_FOUND_MESSAGES[kind]);
  return node;
}

function written<T>(result: store.WriteOutcome<T>, kind: TreeNodeKind): T {
  if (result.outcome === 'missing') throw notFound(NOT_FOUND_MESSAGES[kind]);
  if (result.outcome === 'changed') {
    throw conflict(CHANGED_MEANWHILE_MESSAGE);
  }
  return result.value;
}

export async function createOrganization(
  user: AuthUser,
  orgName: string | undefined,
): Promise<OrganizationView> {
  if (user.role < Role.admin) throw forbidden();
  const org = { orgId: randomUUID(), orgName: validName('organization', orgName), version: 0 };
  if ((await store.createOrganization(org, user.userId, now())) === 'creator-missing')
    throw unauthenticated();
  return toOrganizationView(org, [], []);
}

export async function createBuilding(
  user: AuthUser,
  orgId: string,
  buildName: string | undefined,
): Promise<BuildingView> {
  assertMayEdit(user, orgId);
  const building = { orgId, buildId: randomUUID(), buildName: validName('building', buildName), version: 0 };
  if ((await store.createBuilding(building, now())) === 'parent-missing') {
    throw notFound(NOT_FOUND_MESSAGES.organization);
  }
  return toBuildingView(building);
}

export async function createFloor(
  user: AuthUser,
  buildId: string,
  floorName: string | undefined,
): Promise<FloorView> {
  const building = await editableNode(user, buildId, 'building');
  const floor = {
    orgId: building.orgId,
    buildId,
    floorId: randomUUID(),
    floorName: validName('floor', floorName),
    floorDevTypes: [],
    editMode: false,
    version: 0,
  };
  if ((await store.createFloor(floor, now())) === 'parent-missing')
    throw notFound(NOT_FOUND_MESSAGES.building);
  return toFloorView(floor);
}

/** The renamed node as the client needs it to update its tree. */
export interface RenamedNode {
  _id: string;
  type: TreeNodeKind;
  name: string;
  version: number;
}

const renamedView = (node: TreeNode): RenamedNode => ({
  _id: node.id,
  type: node.kind,
  name: node.name,
  version: node.version,
});

export interface RenameRequest {
  id: string;
  value: string | undefined;
  /** The version the client saw; when given, a rename of a node changed since then is refused. */
  version?: number;
  /** When the caller knows the kind (e.g. the building rename of createOrUpdateOrgBuild). */
  kind?: TreeNodeKind;
  /** The node must belong to this organization / building, when given. */
  orgId?: string;
  buildId?: string;
}

export async function renameNode(user: AuthUser, request: RenameRequest): Promise<RenamedNode> {
  const node = await editableNode(user, request.id, request.kind);
  if (request.orgId !== undefined && node.orgId !== request.orgId)
    throw notFound(NOT_FOUND_MESSAGES[node.kind]);
  if (request.buildId !== undefined && node.buildId !== request.buildId) {
    throw notFound(NOT_FOUND_MESSAGES[node.kind]);
  }
  const name = validName(node.kind, request.value);
  return renamedView(written(await store.updateNode(node, { name }, request.version, now()), node.kind));
}

export interface FloorUpdate {
  orgId: string;
  floorId: string;
  floorName?: string;
  floorDevTypes?: number[];
  version?: number;
}

/** updateFloorPlan: a floor's name and/or the device types present on it. */
export async function updateFloor(user: AuthUser, update: FloorUpdate): Promise<FloorView> {
  assertMayEdit(user, update.orgId);
  const floor = await editableNode(user, update.floorId, 'floor');
  if (floor.orgId !== update.orgId) throw notFound(NOT_FOUND_MESSAGES.floor);
  const changes = {
    ...(update.floorName !== undefined ? { name: validName('floor', update.floorName) } : {}),
    ...(update.floorDevTypes !== undefined
      ? { floorDevTypes: [...new Set(update.floorDevTypes)].sort((a, b) => a - b) }
      : {}),
  };
  written(await store.updateNode(floor, changes, update.version, now()), 'floor');
  const tree = await store.getOrganizationTree(floor.orgId);
  const current = tree?.floors.find((f) => f.floorId === floor.id);
  if (!current) throw notFound(NOT_FOUND_MESSAGES.floor);
  return toFloorView(current);
}

export interface DeleteRequest {
  id: string;
  type: TreeNodeKind;
  version?: number;
}

export interface DeleteResult {
  /** True when the removal of what lies under the node was left for later (time budget or failure). */
  pending: boolean;
}

/**
 * Deletes a node with everything under it. One atomic write commits the delete (the node is marked
 * deleted: hidden from every read, nothing can be created under it); the sweep then removes floors,
 * plans and the device placements. A sweep that stops early is resumed by the next read of the
 * organization or the next delete of the node, so a tree is never left half deleted.
 */
export async function deleteNode(
  user: AuthUser,
  request: DeleteRequest,
  options: SweepOptions = {},
): Promise<DeleteResult> {
  const node = await store.findNode(request.id);
  if (!node) throw notFound(NOT_FOUND_MESSAGES[request.type]);
  assertMayEdit(user, node.orgId);
  if (node.kind !== request.type) throw validationError(WRONG_TYPE_MESSAGE.replace('{kind}', node.kind));

  let target = node;
  if (!node.deletedAt) {
    const marked = await store.markDeleted(node, request.version, now());
    // Deleted by someone else meanwhile: their sweep (or this one) finishes the job.
    if (marked.outcome === 'missing') {
      const current = await store.getNode(node);
      if (!current) return { pending: false };
      target = current;
    } else {
      target = written(marked, node.kind);
    }
  }
  return { pending: !(await sweepDeleted(target, options)) };
}
