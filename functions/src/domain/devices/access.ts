import { hasRole, Role, type RoleNumber } from '@argentum/contracts';
import { DomainError, forbidden, notFound } from '../errors';
import type { NodeRef } from '../tree/ports';
import { NOT_FOUND_MESSAGES } from '../tree/texts';
import type { TreeNode } from '../tree/tree';
import type { AuthUser } from '../users/user';
import type { Device } from './device';
import { DEVICE_MESSAGES } from './texts';
import type { DevicePorts } from './ports';

/**
 * Who may touch what. Every id is decided with the caller's role IN the organization it belongs to;
 * an id of an organization the caller is not in is answered exactly like an unknown id.
 */

export const floorNotFound = () => notFound(NOT_FOUND_MESSAGES.floor);
export const deviceNotFound = () => notFound(DEVICE_MESSAGES.deviceNotFound);
export const floorDeletePending = () => new DomainError('gone', DEVICE_MESSAGES.floorDeletePending);

/** The caller is a member of the organization (else `missing`), with at least `minRole` (else 403). */
export function assertRole(user: AuthUser, orgId: string, minRole: RoleNumber, missing: () => Error): void {
  if (!hasRole(user.orgRoles, orgId, Role.readOnly)) throw missing();
  if (!hasRole(user.orgRoles, orgId, minRole)) throw forbidden();
}

/** Whether the node's organization or building is deleted (the sweep is still removing what lies under it). */
async function underDeletedNode(deps: Pick<DevicePorts, 'tree'>, node: TreeNode): Promise<boolean> {
  const ancestors: NodeRef[] = [{ kind: 'organization', id: node.orgId, orgId: node.orgId }];
  if (node.kind === 'floor' && node.buildId !== undefined) {
    ancestors.push({ kind: 'building', id: node.buildId, orgId: node.orgId });
  }
  const found = await Promise.all(ancestors.map((ref) => deps.tree.getNode(ref)));
  return found.some((ancestor) => !ancestor || ancestor.deletedAt !== undefined);
}

export interface FloorAccess {
  minRole: RoleNumber;
  /** The floor must lie in this organization / building, when given. */
  orgId?: string;
  buildId?: string;
  /**
   * A write that places or removes devices: a floor whose delete is pending answers 410. Readers see
   * such a floor as gone (404), as the tree does.
   */
  forPlacement?: boolean;
}

/** A live floor the caller may use; unknown, foreign and mismatched floors are all the same 404. */
export async function accessibleFloor(
  deps: Pick<DevicePorts, 'tree'>,
  user: AuthUser,
  floorId: string,
  access: FloorAccess,
): Promise<TreeNode> {
  const floor = await deps.tree.findNode(floorId);
  if (!floor || floor.kind !== 'floor') throw floorNotFound();
  assertRole(user, floor.orgId, Role.readOnly, floorNotFound);
  if (access.orgId !== undefined && floor.orgId !== access.orgId) throw floorNotFound();
  if (access.buildId !== undefined && floor.buildId !== access.buildId) throw floorNotFound();
  if (floor.deletedAt !== undefined || (await underDeletedNode(deps, floor))) {
    throw access.forPlacement ? floorDeletePending() : floorNotFound();
  }
  assertRole(user, floor.orgId, access.minRole, floorNotFound);
  return floor;
}

/** A live building the caller may read. */
export async function accessibleBuilding(
  deps: Pick<DevicePorts, 'tree'>,
  user: AuthUser,
  buildId: string,
  orgId: string,
): Promise<TreeNode> {
  const missing = () => notFound(NOT_FOUND_MESSAGES.building);
  const building = await deps.tree.findNode(buildId);
  if (!building || building.kind !== 'building' || building.orgId !== orgId) throw missing();
  assertRole(user, building.orgId, Role.readOnly, missing);
  if (building.deletedAt !== undefined || (await underDeletedNode(deps, building))) throw missing();
  return building;
}

/** A live organization the caller belongs to. */
export async function accessibleOrganization(
  deps: Pick<DevicePorts, 'tree'>,
  user: AuthUser,
  orgId: string,
): Promise<void> {
  const missing = () => notFound(NOT_FOUND_MESSAGES.organization);
  assertRole(user, orgId, Role.readOnly, missing);
  const org = await deps.tree.getNode({ kind: 'organization', id: orgId, orgId });
  if (!org || org.deletedAt !== undefined) throw missing();
}

/**
 * A device the caller may use with `minRole` in its organization. A device of another organization,
 * or one placed on a floor that is not its organization's, is answered like an unknown device.
 */
export async function accessibleDevice(
  deps: Pick<DevicePorts, 'tree' | 'devices'>,
  user: AuthUser,
  devId: string,
  minRole: RoleNumber,
): Promise<Device> {
  const device = await deps.devices.get(devId);
  if (!device) throw deviceNotFound();
  assertRole(user, device.orgID, Role.readOnly, deviceNotFound);
  if (device.onFloor && device.floorID !== undefined) {
    const floor = await deps.tree.findNode(device.floorID);
    if (!floor || floor.kind !== 'floor' || floor.orgId !== device.orgID) throw deviceNotFound();
  }
  assertRole(user, device.orgID, minRole, deviceNotFound);
  return device;
}

/** Several devices of organizations the caller belongs to; any unknown or foreign one is a 404. */
export async function accessibleDevices(
  deps: Pick<DevicePorts, 'devices'>,
  user: AuthUser,
  devIds: readonly string[],
  minRole: RoleNumber,
): Promise<Device[]> {
  const found = new Map((await deps.devices.getMany(devIds)).map((d) => [d.devID, d]));
  const devices = devIds.map((id) => {
    const device = found.get(id);
    if (!device || !hasRole(user.orgRoles, device.orgID, Role.readOnly)) throw deviceNotFound();
    return device;
  });
  for (const device of devices) assertRole(user, device.orgID, minRole, deviceNotFound);
  return devices;
}
