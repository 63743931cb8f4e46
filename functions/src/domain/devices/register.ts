import { DeviceType } from '@argentum/contracts';
import { isReservedDeviceId } from '@argentum/contracts/messaging';
import { conflict, notFound, validationError } from '../errors';
import type { Clock } from '../ports';
import type { TreeStore } from '../tree/ports';
import { type Device, versionOf } from './device';
import type { DeviceStore } from './ports';
import { checkedName, withRetries, written } from './rules';

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
  // An unknown id, a device that is not a gateway and one of another organization get the same answer.
  noGateway: (gatewayId: string, orgId: string) =>
    `Device ${gatewayId} is not a gateway of organization ${orgId}.`,
  gatewayOfGateway: 'A gateway reports directly: it has no gateway.',
  ownGateway: 'A device cannot report through itself.',
} as const;

export interface RegisterDeviceRequest {
  orgId: string;
  devId: string;
  devType: number;
  devName: string;
  /** The floor the device is meant for; it waits among the organization's unplaced devices until placed. */
  floorId?: string;
  /**
   * The gateway (type 0, same organization) the device reports through: the floor's Sensor-Node(link)
   * view draws a line from the device to it. Given for a registered device, it moves the device to it.
   */
  gatewayId?: string;
}

export type RegisterOutcome = {
  /** `gateway-changed`: registered already, now reporting through the gateway the request names. */
  outcome: 'registered' | 'already-registered' | 'gateway-changed';
  device: Device;
};

export interface RegisterPorts {
  devices: Pick<DeviceStore, 'get' | 'register' | 'commit'>;
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

  if (request.gatewayId !== undefined) await checkedGateway(deps, request, request.gatewayId);

  const existing = await deps.devices.get(devId);
  if (existing) return settled(deps, existing, request);
  const device: Device = {
    devID: devId,
    devName,
    devType: request.devType,
    orgID: request.orgId,
    onFloor: false,
    ...(request.floorId !== undefined && buildId !== undefined
      ? { floorID: request.floorId, buildID: buildId }
      : {}),
    ...(request.gatewayId !== undefined ? { gatewayID: request.gatewayId } : {}),
    dataPoints: [],
    properties: {},
    updatedAt: deps.clock.now().toISOString(),
    version: 0,
  };
  const written = await deps.devices.register(device);
  // Registered by someone else in between: the same answer as a device found at the start.
  if (written.outcome === 'exists') return settled(deps, written.device, request);
  return { outcome: 'registered', device };
}

/** The gateway a request names: a gateway of the request's organization, other than the device. */
async function checkedGateway(deps: RegisterPorts, request: RegisterDeviceRequest, gatewayId: string) {
  if (request.devType === DeviceType.gateway) throw validationError(REGISTER_MESSAGES.gatewayOfGateway);
  if (gatewayId === request.devId) throw validationError(REGISTER_MESSAGES.ownGateway);
  const gateway = await deps.devices.get(gatewayId);
  if (gateway?.orgID !== request.orgId || gateway.devType !== DeviceType.gateway)
    throw notFound(REGISTER_MESSAGES.noGateway(gatewayId, request.orgId));
}

/** A device registered already: refused in another organization; moved to the gateway asked for. */
async function settled(deps: RegisterPorts, found: Device, request: RegisterDeviceRequest): Promise<RegisterOutcome> {
  if (found.orgID !== request.orgId) throw conflict(REGISTER_MESSAGES.otherOrganization(found.devID));
  const gatewayID = request.gatewayId;
  if (gatewayID === undefined || found.gatewayID === gatewayID) return { outcome: 'already-registered', device: found };
  if (found.devType === DeviceType.gateway) throw validationError(REGISTER_MESSAGES.gatewayOfGateway);
  // Edited in between (its version moved): read again and set the gateway on top of the edit.
  return withRetries(3, async () => {
    const device = (await deps.devices.get(found.devID)) ?? found;
    if (device.gatewayID === gatewayID) return { outcome: 'already-registered', device };
    const now = deps.clock.now().toISOString();
    const version = versionOf(device);
    written(
      await deps.devices.commit({
        devices: [{ devId: device.devID, orgId: device.orgID, expectedVersion: version, set: { gatewayID } }],
        floors: [],
        groups: [],
        live: [],
        now,
      }),
    );
    return { outcome: 'gateway-changed', device: { ...device, gatewayID, version: version + 1, updatedAt: now } };
  });
}
