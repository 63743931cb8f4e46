import {
  DeviceType,
  PORT_DEVICE_TYPES,
  DEVICE_NAME_AND_PORT_REQUIRED_TEXT,
  DEVICE_NAME_REQUIRED_TEXT,
  FLOOR_PLAN_UPDATED_TEXT,
  hasRole,
  MIN_ROLE,
  Role,
  SELECT_DATA_POINTS_TEXT,
  UNGROUP_BEFORE_REMOVE_TEXT,
  type DeviceView,
} from '@argentum/contracts';
import { conflict, forbidden, validationError } from '../errors';
import type { NodeRef } from '../tree/ports';
import type { TreeNode } from '../tree/tree';
import type { AuthUser } from '../users/user';
import {
  accessibleDevice,
  accessibleDevices,
  accessibleFloor,
  deviceNotFound,
  floorNotFound,
} from './access';
import {
  type DataPoint,
  type Device,
  toDeviceView,
  versionOf,
} from './device';
import { DEVICE_MESSAGES } from './texts';
import { type DeviceChange, type DevicePorts, MAX_COMMIT_ITEMS, type Placement } from './ports';
import { assertVersion, checkedDataPoints, checkedName, withRetries, written } from './rules';

/**
 * Placing devices on floors, moving them and taking them off: edit mode's Save and the single-device
 * calls. Every write changes the devices AND the floors' device types in one transaction, conditioned
 * on the versions that were read, on the floors' devices not having changed meanwhile, and on the
 * floors (and their building and organization) not being deleted.
 */

/** One entry of edit mode's Save. */
export interface FloorEntry {
  devID: string;
  /** The floor (and its building) the entry names: the specification's form of the body. */
  floorID?: string;
  buildID?: string;
  onFloor?: boolean;
  floorOrigin?: { x: number; y: number };
  devName?: string;
  port?: number | string;
  dataPoints?: DataPoint[];
  version?: number;
}

export interface PlacementAnswer {
  message: string;
  /** The changed devices as they are now. */
  devices: DeviceView[];
  /** The floor's device types after the change. */
  floorDevTypes: number[];
}

const ATTEMPTS = 3;
const nodeRef = (node: TreeNode): NodeRef => ({
  kind: node.kind,
  id: node.id,
  orgId: node.orgId,
  ...(node.buildId !== undefined ? { buildId: node.buildId } : {}),
});

/** Gateways are placed, moved and removed only by role 3 in their organization. */
function assertMayHandle(user: AuthUser, device: Device): void {
  if (device.devType === DeviceType.gateway && !hasRole(user.orgRoles, device.orgID, MIN_ROLE.gateways)) {
    throw forbidden(DEVICE_MESSAGES.gatewayOwnerOnly);
  }
}

/** The rules of a drop (specification section 5): name, port where the kind has one, IEQ data points. */
function dropChange(
  device: Device,
  floor: TreeNode,
  entry: Omit<FloorEntry, 'devID' | 'onFloor'>,
  defaultOrigin?: { x: number; y: number },
): DeviceChange {
  const alreadyHere = device.onFloor && device.floorID === floor.id;
  const name = (entry.devName ?? device.devName ?? '').trim();
  const port = entry.port ?? device.port;
  if (PORT_DEVICE_TYPES.includes(device.devType) && (name === '' || port === undefined || port === '')) {
    throw validationError(DEVICE_NAME_AND_PORT_REQUIRED_TEXT);
  }
  if (name === '') throw validationError(DEVICE_NAME_REQUIRED_TEXT);
  const dataPoints = entry.dataPoints ? checkedDataPoints(entry.dataPoints) : (device.dataPoints ?? []);
  if (device.devType === DeviceType.ieq && dataPoints.length === 0) throw validationError(SELECT_DATA_POINTS_TEXT);
  const floorOrigin = entry.floorOrigin ?? (alreadyHere ? device.floorOrigin : defaultOrigin);
  if (!floorOrigin) throw validationError(DEVICE_MESSAGES.positionRequired);
  const set: DeviceChange['set'] = {};
  // A stored name is checked when it is given or the device is placed: moves keep what is there.
  if (entry.devName !== undefined || !alreadyHere) set.devName = checkedName(name, DEVICE_NAME_REQUIRED_TEXT);
  if (entry.port !== undefined) set.port = entry.port;
  if (entry.dataPoints) set.dataPoints = dataPoints;
  return {
    devId: device.devID,
    orgId: device.orgID,
    expectedVersion: versionOf(device),
    set,
    placement: { floorId: floor.id, buildId: floor.buildId ?? '', floorOrigin },
  };
}

function removalChange(device: Device, floor: TreeNode): DeviceChange {
  if (!(device.onFloor && device.floorID === floor.id)) throw conflict(DEVICE_MESSAGES.notOnThisFloor);
  if (device.groupNumber !== undefined) throw validationError(UNGROUP_BEFORE_REMOVE_TEXT);
  return { devId: device.devID, orgId: device.orgID, expectedVersion: versionOf(device), placement: 'off' };
}

/** The device as it is after the change was written. */
export function applied(device: Device, change: DeviceChange, now: string): Device {
  const next: Device = { ...device, ...change.set, version: change.expectedVersion + 1, updatedAt: now };
  if (change.removeGroup) delete next.groupNumber;
  const placement: Placement | undefined = change.placement;
  if (placement === 'off') {
    next.onFloor = false;
    delete next.floorID;
    delete next.buildID;
    delete next.floorOrigin;
  } else if (placement) {
    next.onFloor = true;
    next.floorID = placement.floorId;
    next.buildID = placement.buildId;
    next.floorOrigin = placement.floorOrigin;
  }
  return next;
}

/**
 * Commits device changes together with the device types of every floor they touch. Answers each
 * touched floor's device types.
 */
async function commitWithFloors(
  deps: DevicePorts,
  floors: TreeNode[],
  devices: Device[],
  changes: DeviceChange[],
  now: string,
): Promise<Map<string, number[]>> {
  const after = new Map(devices.map((d, i) => [d.devID, applied(d, changes[i] as DeviceChange, now)]));
  const typesByFloor = new Map<string, number[]>();
  const floorChanges = await Promise.all(
    floors.map(async (floor) => {
      const [devicesVersion, current] = await Promise.all([
        deps.devices.floorDevicesVersion(nodeRef(floor)),
        deps.devices.onFloor(floor.id),
      ]);
      if (devicesVersion === undefined) throw floorNotFound();
      const types = new Set<number>();
      for (const d of current)
        if (!after.has(d.devID) && d.onFloor && d.floorID === floor.id) types.add(d.devType);
      for (const d of after.values()) if (d.onFloor && d.floorID === floor.id) types.add(d.devType);
      const floorDevTypes = [...types].sort((a, b) => a - b);
      typesByFloor.set(floor.id, floorDevTypes);
      return { floor: nodeRef(floor), expectedDevicesVersion: devicesVersion, floorDevTypes };
    }),
  );
  // The floors' building and organization must still be live: checked in the same transaction when it
  // has room (the floors themselves always are), else they were checked when the floor was read.
  const ancestors = new Map<string, NodeRef>();
  for (const floor of floors) {
    ancestors.set(floor.orgId, { kind: 'organization', id: floor.orgId, orgId: floor.orgId });
    if (floor.buildId)
      ancestors.set(floor.buildId, { kind: 'building', id: floor.buildId, orgId: floor.orgId });
  }
  const room = MAX_COMMIT_ITEMS - changes.length - floorChanges.length;
  written(
    await deps.devices.commit({
      devices: changes,
      floors: floorChanges,
      groups: [],
      live: ancestors.size <= room ? [...ancestors.values()] : [],
      now,
    }),
  );
  return typesByFloor;
}

/**
 * The one floor (and building, when named) a save names: the body's floorID or its entries' (the
 * specification's form), which must agree.
 */
function savedFloor(request: { floorId?: string; entries: readonly FloorEntry[] }) {
  const theOne = (ids: (string | undefined)[]) => {
    const named = new Set(ids.filter((id) => id !== undefined));
    if (named.size > 1) throw validationError(DEVICE_MESSAGES.oneFloor);
    return [...named][0];
  };
  const floorId = theOne([request.floorId, ...request.entries.map((e) => e.floorID)]);
  if (floorId === undefined) throw validationError(DEVICE_MESSAGES.floorRequired);
  const buildId = theOne(request.entries.map((e) => e.buildID));
  return { floorId, ...(buildId !== undefined ? { buildId } : {}) };
}

/** updateOnFloorStatus: edit mode's Save, all or nothing. */
export async function saveFloorDevices(
  deps: DevicePorts,
  user: AuthUser,
  request: { floorId?: string; onFloorStatus: boolean; entries: FloorEntry[] },
): Promise<PlacementAnswer> {
  const ids = request.entries.map((e) => e.devID);
  if (new Set(ids).size !== ids.length) throw validationError(DEVICE_MESSAGES.duplicateDevice);
  if (ids.length + 1 > MAX_COMMIT_ITEMS)
    throw validationError(DEVICE_MESSAGES.tooManyDevices(MAX_COMMIT_ITEMS - 1));
  const { floorId, buildId } = savedFloor(request);
  return withRetries(ATTEMPTS, async () => {
    const floor = await accessibleFloor(deps, user, floorId, {
      minRole: Role.admin,
      forPlacement: true,
      ...(buildId !== undefined ? { buildId } : {}),
    });
    // Only devices of the floor's organization can be placed on it (its admin role is checked above).
    const devices = await accessibleDevices(deps, user, ids, Role.readOnly);
    const changes = request.entries.map((entry, i) => {
      const device = devices[i] as Device;
      if (device.orgID !== floor.orgId) throw deviceNotFound();
      assertVersion(device, entry.version);
      assertMayHandle(user, device);
      if (!(entry.onFloor ?? request.onFloorStatus)) return removalChange(device, floor);
      if (device.onFloor && device.floorID !== floor.id) throw conflict(DEVICE_MESSAGES.onAnotherFloor);
      return dropChange(device, floor, entry);
    });
    const now = deps.clock.now().toISOString();
    const types = await commitWithFloors(deps, [floor], devices, changes, now);
    const epoch = deps.clock.now().getTime();
    return {
      message: FLOOR_PLAN_UPDATED_TEXT,
      devices: devices.map((d, i) => toDeviceView(applied(d, changes[i] as DeviceChange, now), epoch)),
      floorDevTypes: types.get(floor.id) ?? [],
    };
  });
}

/**
 * updateDeviceBuildFloorID: places one device on a floor of a building, or moves it there from
 * another floor (a position not given: the plan's centre for a device new on the floor).
 */
export async function placeDevice(
  deps: DevicePorts,
  user: AuthUser,
  request: {
    devId: string;
    floorId: string;
    buildId: string;
    floorOrigin?: { x: number; y: number };
    version?: number;
  },
): Promise<PlacementAnswer> {
  return withRetries(ATTEMPTS, async () => {
    const floor = await accessibleFloor(deps, user, request.floorId, {
      minRole: Role.admin,
      buildId: request.buildId,
      forPlacement: true,
    });
    const device = await accessibleDevice(deps, user, request.devId, Role.readOnly);
    if (device.orgID !== floor.orgId) throw deviceNotFound();
    assertVersion(device, request.version);
    assertMayHandle(user, device);
    const change = dropChange(
      device,
      floor,
      request.floorOrigin ? { floorOrigin: request.floorOrigin } : {},
      { x: 0.5, y: 0.5 },
    );
    const floors = [floor];
    if (device.onFloor && device.floorID !== undefined && device.floorID !== floor.id) {
      const previous = await deps.tree.findNode(device.floorID);
      if (previous?.kind === 'floor' && previous.orgId === floor.orgId) floors.push(previous);
    }
    const now = deps.clock.now().toISOString();
    const types = await commitWithFloors(deps, floors, [device], [change], now);
    return {
      message: DEVICE_MESSAGES.placedOnFloor,
      devices: [toDeviceView(applied(device, change, now), deps.clock.now().getTime())],
      floorDevTypes: types.get(floor.id) ?? [],
    };
  });
}

/** removeDeviceFromFloor: an ungrouped device goes back to the organization's off-floor devices. */
export async function removeDevice(
  deps: DevicePorts,
  user: AuthUser,
  request: { devId: string; floorId: string; version?: number },
): Promise<PlacementAnswer> {
  return withRetries(ATTEMPTS, async () => {
    const floor = await accessibleFloor(deps, user, request.floorId, {
      minRole: Role.admin,
      forPlacement: true,
    });
    const device = await accessibleDevice(deps, user, request.devId, Role.readOnly);
    if (device.orgID !== floor.orgId) throw deviceNotFound();
    assertVersion(device, request.version);
    assertMayHandle(user, device);
    const change = removalChange(device, floor);
    const now = deps.clock.now().toISOString();
    const types = await commitWithFloors(deps, [floor], [device], [change], now);
    return {
      message: DEVICE_MESSAGES.removedFromFloor,
      devices: [toDeviceView(applied(device, change, now), deps.clock.now().getTime())],
      floorDevTypes: types.get(floor.id) ?? [],
    };
  });
}
