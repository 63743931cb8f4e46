import {
  DeviceType,
  Role,
  type FloorDevicesAnswer,
  type GatewayElsewhere,
  type SensorsCountAnswer,
  type DeviceView,
} from '@argentum/contracts';
import { byName } from '../../lib/by-name';
import type { AuthUser } from '../users/user';
import { accessibleBuilding, accessibleFloor, accessibleOrganization } from './access';
import { type Device, isOnline, toDeviceView } from './device';
import type { DevicePorts } from './ports';
import { reportsOccupied } from './occupancy';

const sorted = (devices: Device[]) => [...devices].sort((a, b) => byName(a.devName, b.devName));

/**
 * getAllDevicesDataForFloorPlan: the devices on a floor (onFloor true or absent), or the organization's
 * devices that are on no floor (onFloor false: edit mode's tiles); and the caller's icon sizes there.
 */
export async function floorDevices(
  deps: DevicePorts,
  user: AuthUser,
  request: { floorId: string; orgId: string; onFloor?: boolean },
): Promise<FloorDevicesAnswer> {
  const floor = await accessibleFloor(deps, user, request.floorId, {
    minRole: Role.readOnly,
    orgId: request.orgId,
  });
  const [devices, sensorSizes] = await Promise.all([
    request.onFloor === false
      ? deps.devices.ofOrganization(floor.orgId).then((all) => all.filter((d) => !d.onFloor))
      : deps.devices
          .onFloor(floor.id)
          .then((all) => all.filter((d) => d.onFloor && d.floorID === floor.id && d.orgID === floor.orgId)),
    deps.iconSizes.get(user.userId, floor.id),
  ]);
  const now = deps.clock.now().getTime();
  const answer: FloorDevicesAnswer = { devices: sorted(devices).map((d) => toDeviceView(d, now)), sensorSizes };
  if (request.onFloor === false) return answer;
  const gateways = await gatewaysElsewhere(deps, floor.orgId, devices, now);
  return gateways.length > 0 ? { ...answer, gatewaysElsewhere: gateways } : answer;
}

/**
 * The gateways `devices` report through that are not among them (on another floor, or on none),
 * with their own status and floor, so a device's configuration can say how its gateway is. Only
 * gateways of the floor's organization: a foreign or unknown id is left out, as if unnamed.
 */
async function gatewaysElsewhere(
  deps: DevicePorts,
  orgId: string,
  devices: readonly Device[],
  now: number,
): Promise<GatewayElsewhere[]> {
  const here = new Set(devices.map((d) => d.devID));
  const wanted = [
    ...new Set(devices.flatMap((d) => (d.gatewayID && !here.has(d.gatewayID) ? [d.gatewayID] : []))),
  ];
  if (wanted.length === 0) return [];
  const gateways = (await deps.devices.getMany(wanted)).filter(
    (g) => g.orgID === orgId && g.devType === DeviceType.gateway,
  );
  const floorIds = [...new Set(gateways.flatMap((g) => (g.onFloor && g.floorID ? [g.floorID] : [])))];
  const floors = new Map(
    (await Promise.all(floorIds.map((id) => deps.tree.findNode(id)))).flatMap((node) =>
      node && node.kind === 'floor' && node.orgId === orgId && !node.deletedAt ? [[node.id, node.name]] : [],
    ),
  );
  return sorted(gateways).map((g) => {
    const floorName = g.onFloor && g.floorID ? floors.get(g.floorID) : undefined;
    return {
      devID: g.devID,
      devName: g.devName,
      online: isOnline(g, now),
      ...(floorName !== undefined ? { floorName } : {}),
    };
  });
}

/** getAnalyticsSensorsCount: counts of a floor's devices for the floor details panel. */
export async function sensorsCount(
  deps: DevicePorts,
  user: AuthUser,
  request: { floorId: string; buildId: string; orgId: string },
): Promise<SensorsCountAnswer> {
  const floor = await accessibleFloor(deps, user, request.floorId, {
    minRole: Role.readOnly,
    orgId: request.orgId,
    buildId: request.buildId,
  });
  const devices = (await deps.devices.onFloor(floor.id)).filter((d) => d.onFloor && d.floorID === floor.id);
  const now = deps.clock.now().getTime();
  const answer: SensorsCountAnswer = { total: 0, online: 0, offline: 0, byType: {}, occupied: 0 };
  for (const device of devices) {
    const online = isOnline(device, now);
    answer.total++;
    if (online) answer.online++;
    else answer.offline++;
    answer.byType[String(device.devType)] = (answer.byType[String(device.devType)] ?? 0) + 1;
    if (reportsOccupied(device, now)) answer.occupied++;
  }
  return answer;
}

/** getOfflineSensors: the offline devices of a floor, a building (its floors) or a whole organization. */
export async function offlineSensors(
  deps: DevicePorts,
  user: AuthUser,
  request: { orgId: string; buildId?: string; floorId?: string },
): Promise<{ devices: DeviceView[]; count: number }> {
  let devices: Device[];
  if (request.floorId !== undefined) {
    const floor = await accessibleFloor(deps, user, request.floorId, {
      minRole: Role.readOnly,
      orgId: request.orgId,
      ...(request.buildId !== undefined ? { buildId: request.buildId } : {}),
    });
    devices = (await deps.devices.onFloor(floor.id)).filter((d) => d.onFloor && d.floorID === floor.id);
  } else if (request.buildId !== undefined) {
    const building = await accessibleBuilding(deps, user, request.buildId, request.orgId);
    devices = (await deps.devices.ofOrganization(building.orgId)).filter(
      (d) => d.onFloor && d.buildID === building.id,
    );
  } else {
    await accessibleOrganization(deps, user, request.orgId);
    devices = await deps.devices.ofOrganization(request.orgId);
  }
  const now = deps.clock.now().getTime();
  const offline = sorted(devices.filter((d) => !isOnline(d, now))).map((d) => toDeviceView(d, now));
  return { devices: offline, count: offline.length };
}
