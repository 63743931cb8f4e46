import { isReservedDeviceId } from '@argentum/contracts/messaging';
import { conflict, notFound, validationError } from '../errors';
import type { Clock } from '../ports';
import type { TreeStore } from '../tree/ports';
import type { Device } from './device';
import type { DeviceStore } from './ports';
import { checkedName } from './rules';

/**
 * A device id is also its IoT thing name, its MQTT client id and a level of its topics: AWS IoT's
 * thing-name characters (letters, digits, ':', '_', '-'; at most 128), and never a confirmation
 * outcome (`isReservedDeviceId`), whose topic would be `{org}/controldata/success|fail`.
 */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9:_-]{1,128}$/;
/** The device type numbers (specification section 3: 0 gateway ... 9 air flow). */
export const DEVICE_TYPE_RANGE = { min: 0, max: 9 } as const;

export const REGISTER_MESSAGES = {
  badDeviceId: (devId: string) =>
    `Device id "${devId}" is not allowed: letters, digits, ':', '_' and '-' only (at most 128), not "success" or "fail", and not starting with "web-" (browsers' client ids).`,
  badDeviceType: (devType: number) =>
    `Device type ${devType} is unknown: a whole number from ${DEVICE_TYPE_RANGE.min} to ${DEVICE_TYPE_RANGE.max}.`,
  noOrganization: (orgId: string) => `Organization ${orgId} does not exist.`,
  noFloor: (floorId: string, orgId: string) => `Floor ${floorId} is not a floor of organization ${orgId}.`,
  otherOrganization: (devId: string) => `Device ${devId} is registered in another organization.`,
} as const;

export interface RegisterDeviceRequest {
  orgId: string;
  devId: string;
  devType: number;
  devName: string;
  /** The floor the device is meant for; it waits among the organization's unplaced devices until placed. */
  floorId?: string;
}

export type RegisterOutcome = { outcome: 'registered' | 'already-registered'; device: Device };

export interface RegisterPorts {
  devices: Pick<DeviceStore, 'get' | 'register'>;
  tree: Pick<TreeStore, 'readOrganizationTree'>;
  clock: Clock;
}

export function checkedDeviceId(devId: string): string {
  if (!DEVICE_ID_PATTERN.test(devId) || isReservedDeviceId(devId))
    throw validationError(REGISTER_MESSAGES.badDeviceId(devId));
  return devId;
}

/**
 * Registers a device in its organization (ops provisioning): the organization must exist, the id must
 * be usable as a thing name and topic level, the name follows the device name rule. Registering the
 * same device in the same organization again changes nothing (provisioning may run twice); a device
 * id already registered in another organization is refused.
 */
export async function registerDevice(
  deps: RegisterPorts,
  request: RegisterDeviceRequest,
): Promise<RegisterOutcome> {
  const devId = checkedDeviceId(request.devId);
  if (
    !Number.isInteger(request.devType) ||
    request.devType < DEVICE_TYPE_RANGE.min ||
    request.devType > DEVICE_TYPE_RANGE.max
  )
    throw validationError(REGISTER_MESSAGES.badDeviceType(request.devType));
  const devName = checkedName(request.devName);
  const { tree } = await deps.tree.readOrganizationTree(request.orgId);
  if (!tree) throw notFound(REGISTER_MESSAGES.noOrganization(request.orgId));
  let buildId: string | undefined;
  if (request.floorId !== undefined) {
    const floor = tree.floors.find((f) => f.floorId === request.floorId);
    if (!floor) throw notFound(REGISTER_MESSAGES.noFloor(request.floorId, request.orgId));
    buildId = floor.buildId;
  }

  const existing = await deps.devices.get(devId);
  if (existing) return settled(existing, request.orgId);
  const device: Device = {
    devID: devId,
    devName,
    devType: request.devType,
    orgID: request.orgId,
    onFloor: false,
    ...(request.floorId !== undefined && buildId !== undefined
      ? { floorID: request.floorId, buildID: buildId }
      : {}),
    dataPoints: [],
    properties: {},
    updatedAt: deps.clock.now().toISOString(),
    version: 0,
  };
  const written = await deps.devices.register(device);
  // Registered by someone else in between: the same answer as a device found at the start.
  if (written.outcome === 'exists') return settled(written.device, request.orgId);
  return { outcome: 'registered', device };
}

function settled(existing: Device, orgId: string): RegisterOutcome {
  if (existing.orgID !== orgId) throw conflict(REGISTER_MESSAGES.otherOrganization(existing.devID));
  return { outcome: 'already-registered', device: existing };
}
