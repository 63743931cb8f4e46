import { randomUUID } from 'node:crypto';
import {
  checkName,
  EMPTY_NAME_TEXT,
  FLOOR_TITLE_EMPTY_TEXT,
  hasRole,
  highestRole,
  Role,
} from '@argentum/contracts';
import { conflict, forbidden, notFound, unauthenticated, validationError } from '../errors';
import type { AuthUser } from '../users/user';
import type { NodeRef, TreeStore, WriteOutcome } from './ports';
import {
  CHANGED_MEANWHILE_MESSAGE,
  ITEM_NOT_FOUND_MESSAGE,
  NOT_FOUND_MESSAGES,
  WRONG_TYPE_MESSAGE,
} from './texts';
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
 * Editing the tree. Who may edit: an admin (role 2) or higher in the organization the node belongs
 * to; the platform owner is no exception. Every write names the state it expects, so two admins
 * editing at once never silently undo each other.
 */

/** What tree editing needs. */
export interface TreeEditingPorts {
  tree: TreeStore;
  clock: { now(): Date };
}

const stamp = (deps: Pick<TreeEditingPorts, 'clock'>) => deps.clock.now().toISOString();

/**
 * The caller must administer the organization. An organization they are not in is answered exactly
 * like one that does not exist (`missing`), so nobody learns which ids exist elsewhere.
 */
function assertMayEdit(user: AuthUser, orgId: string, missing: () => Error): void {
  if (!hasRole(user.orgRoles, orgId, Role.readOnly)) throw missing();
  if (!hasRole(user.orgRoles, orgId, Role.admin)) throw forbidden();
}

/** A name as stored: normalized, trimmed, never empty, and plain text. */
function validName(kind: TreeNodeKind, value: string | undefined, emptyText = EMPTY_NAME_TEXT[kind]): string {
  const checked = checkName(value ?? '');
  if (!checked.ok) throw validationError(checked.reason === 'empty' ? emptyText : checked.reason);
  return checked.name;
}

/** A live node the user may edit; unknown, deleted and other organizations' nodes are all 404. */
async function editableNode(
  deps: Pick<TreeEditingPorts, 'tree'>,
  user: AuthUser,
  id: string,
  kind?: TreeNodeKind,
): Promise<TreeNode> {
  const node = await deps.tree.findNode(id);
  const missing = () => notFound(kind ? NOT_FOUND_MESSAGES[kind] : ITEM_NOT_FOUND_MESSAGE);
  if (!node) throw missing();
  assertMayEdit(user, node.orgId, missing);
  if (node.deletedAt || (await underDeletedNode(deps, node))) throw notFound(NOT_FOUND_MESSAGES[node.kind]);
  if (kind && node.kind !== kind) throw notFound(NOT_FOUND_MESSAGES[kind]);
  return node;
}

/**
 * True when the organization or building a node lies in is deleted: until the sweeper has removed it,
 * the node is still stored, but it is gone for every reader and every edit.
 */
async function underDeletedNode(deps: Pick<TreeEditingPorts, 'tree'>, node: TreeNode): Promise<boolean> {
  const ancestors: NodeRef[] = [];
  if (node.kind !== 'organization')
    ancestors.push({ kind: 'organization', id: node.orgId, orgId: node.orgId });
  if (node.kind === 'floor' && node.buildId !== undefined) {
    ancestors.push({ kind: 'building', id: node.buildId, orgId: node.orgId });
  }
  const found = await Promise.all(ancestors.map((ref) => deps.tree.getNode(ref)));
  return found.some((ancestor) => !ancestor || ancestor.deletedAt !== undefined);
}

function written<T>(result: WriteOutcome<T>, kind: TreeNodeKind): T {
  if (result.outcome === 'missing') throw notFound(NOT_FOUND_MESSAGES[kind]);
  if (result.outcome === 'changed') {
    throw conflict(CHANGED_MEANWHILE_MESSAGE);
  }
  return result.value;
}

/**
 * Creates an organization; its creator (an admin somewhere) becomes its member with their highest
 * role, so they administer what they created.
 */
export async function createOrganization(
  deps: TreeEditingPorts,
  user: AuthUser,
  orgName: string | undefined,
): Promise<OrganizationView> {
  const role = highestRole(user.orgRoles);
  if (role < Role.admin) throw forbidden();
  const org = { orgId: randomUUID(), orgName: validName('organization', orgName), version: 0 };
  const created = await deps.tree.createOrganization(org, { userId: user.userId, role }, stamp(deps));
  if (created === 'creator-missing') throw unauthenticated();
  return toOrganizationView(org, [], []);
}

export async function createBuilding(
  deps: TreeEditingPorts,
  user: AuthUser,
  orgId: string,
  buildName: string | undefined,
): Promise<BuildingView> {
  assertMayEdit(user, orgId, () => notFound(NOT_FOUND_MESSAGES.organization));
  const building = { orgId, buildId: randomUUID(), buildName: validName('building', buildName), version: 0 };
  if ((await deps.tree.createBuilding(building, stamp(deps))) === 'parent-missing') {
    throw notFound(NOT_FOUND_MESSAGES.organization);
  }
  return toBuildingView(building);
}

export async function createFloor(
  deps: TreeEditingPorts,
  user: AuthUser,
  buildId: string,
  floorName: string | undefined,
): Promise<FloorView> {
  const building = await editableNode(deps, user, buildId, 'building');
  const floor = {
    orgId: building.orgId,
    buildId,
    floorId: randomUUID(),
    floorName: validName('floor', floorName),
    floorDevTypes: [],
    editMode: false,
    version: 0,
  };
  if ((await deps.tree.createFloor(floor, stamp(deps))) === 'parent-missing')
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

export async function renameNode(
  deps: TreeEditingPorts,
  user: AuthUser,
  request: RenameRequest,
): Promise<RenamedNode> {
  const node = await editableNode(deps, user, request.id, request.kind);
  if (request.orgId !== undefined && node.orgId !== request.orgId)
    throw notFound(NOT_FOUND_MESSAGES[node.kind]);
  if (request.buildId !== undefined && node.buildId !== request.buildId) {
    throw notFound(NOT_FOUND_MESSAGES[node.kind]);
  }
  const name = validName(node.kind, request.value);
  return renamedView(
    written(await deps.tree.updateNode(node, { name }, request.version, stamp(deps)), node.kind),
  );
}

export interface FloorUpdate {
  orgId: string;
  floorId: string;
  floorName?: string;
  floorDevTypes?: number[];
  version?: number;
}

/** updateFloorPlan: a floor's name and/or the device types present on it. */
export async function updateFloor(
  deps: TreeEditingPorts,
  user: AuthUser,
  update: FloorUpdate,
): Promise<FloorView> {
  const floor = await editableNode(deps, user, update.floorId, 'floor');
  if (floor.orgId !== update.orgId) throw notFound(NOT_FOUND_MESSAGES.floor);
  const changes = {
    // Renamed in the floor's header: the floor-plan specification's text.
    ...(update.floorName !== undefined
      ? { name: validName('floor', update.floorName, FLOOR_TITLE_EMPTY_TEXT) }
      : {}),
    ...(update.floorDevTypes !== undefined
      ? { floorDevTypes: [...new Set(update.floorDevTypes)].sort((a, b) => a - b) }
      : {}),
  };
  written(await deps.tree.updateNode(floor, changes, update.version, stamp(deps)), 'floor');
  const { tree } = await deps.tree.readOrganizationTree(floor.orgId);
  const current = tree?.floors.find((f) => f.floorId === floor.id);
  if (!current) throw notFound(NOT_FOUND_MESSAGES.floor);
  return toFloorView(current);
}

export interface DeleteRequest {
  id: string;
  type: TreeNodeKind;
  version?: number;
}

/**
 * Deletes a node with everything under it. One atomic write commits the delete: the node is marked
 * deleted, hidden from every read with everything under it, and nothing can be created under it. The
 * delete answers right then; the sweeper (off the request path, fed by the table's stream) removes the
 * floors, plans and device placements. Deleting a node whose delete is committed hands it to the
 * sweeper again, so a sweep that gave up is finished by a retry of the delete.
 */
export async function deleteNode(
  deps: TreeEditingPorts,
  user: AuthUser,
  request: DeleteRequest,
): Promise<void> {
  const node = await deps.tree.findNode(request.id);
  const missing = () => notFound(NOT_FOUND_MESSAGES[request.type]);
  if (!node) throw missing();
  assertMayEdit(user, node.orgId, missing);
  if (node.kind !== request.type) throw validationError(WRONG_TYPE_MESSAGE.replace('{kind}', node.kind));
  // Under a deleted organization or building, a node is already gone (its sweep is under way).
  if (await underDeletedNode(deps, node)) throw missing();

  if (node.deletedAt) {
    await deps.tree.requestSweep(node, stamp(deps));
    return;
  }
  const marked = await deps.tree.markDeleted(node, request.version, stamp(deps));
  // Deleted by someone else meanwhile: their delete is committed and swept just the same.
  if (marked.outcome === 'missing') return;
  written(marked, node.kind);
}
