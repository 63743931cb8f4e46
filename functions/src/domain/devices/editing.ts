import {
  DEVICE_NAME_UPDATED_TEXT,
  DeviceType,
  hasRole,
  ICON_NOT_AVAILABLE_TEXT,
  iconChoicesOf,
  MIN_ROLE,
  SELECT_DATA_POINTS_TEXT,
  THERMISTOR_ADDED_TEXT,
  VALUE_UPDATED_TEXT,
  VENDOR_LINK_ADMIN_TEXT,
  VENDOR_LINK_PROPERTIES,
  type DeviceView,
} from '@argentum/contracts';
import { forbidden, validationError } from '../errors';
import type { AuthUser } from '../users/user';
import { accessibleDevice } from './access';
import { type DataPoint, type Device, toDeviceView, versionOf } from './device';
import { DEVICE_MESSAGES } from './texts';
import type { DeviceChange, DevicePorts } from './ports';
import { applied } from './placement';
import { assertVersion, checkedDataPoints, checkedName, withRetries, written } from './rules';

/** Names, properties and data points of a device: roles above 0 in the device's organization. */

export interface DeviceAnswer {
  message: string;
  device: DeviceView;
}

const ATTEMPTS = 3;
/** Kinds whose configuration needs at least one data point (motion sensors and IEQ sensors). */
const NEEDS_DATA_POINTS: readonly number[] = [DeviceType.motion, DeviceType.ieq];

async function change(
  deps: DevicePorts,
  user: AuthUser,
  request: { devId: string; devType: number; version?: number },
  decide: (device: Device) => DeviceChange['set'],
): Promise<Device> {
  return withRetries(ATTEMPTS, async () => {
    const device = await accessibleDevice(deps, user, request.devId, MIN_ROLE.control);
    if (device.devType !== request.devType) throw validationError(DEVICE_MESSAGES.devTypeMismatch);
    assertVersion(device, request.version);
    const set = decide(device);
    const deviceChange: DeviceChange = {
      devId: device.devID,
      orgId: device.orgID,
      expectedVersion: versionOf(device),
      set,
    };
    const now = deps.clock.now().toISOString();
    written(await deps.devices.commit({ devices: [deviceChange], floors: [], groups: [], live: [], now }));
    return applied(device, deviceChange, now);
  });
}

/** Merges data-point edits into the device's data points by their key `dp`. */
function mergedDataPoints(current: readonly DataPoint[], edits: readonly DataPoint[]): DataPoint[] {
  const byKey = new Map(edits.map((e) => [e.dp, e]));
  for (const key of byKey.keys()) {
    if (!current.some((p) => p.dp === key)) throw validationError(DEVICE_MESSAGES.unknownDataPoint(key));
  }
  return current.map((p) => ({ ...p, ...byKey.get(p.dp) }));
}

/**
 * A change of a vendor link (properties.ryseShadeId, sdmDeviceId, ecobeeThermostatId) needs an admin of
 * the device's organization; a member who may edit the device can send the links back unchanged.
 */
function assertMayLink(user: AuthUser, device: Device, properties: Record<string, unknown>): void {
  const changesLink = VENDOR_LINK_PROPERTIES.some(
    (name) => name in properties && JSON.stringify(properties[name]) !== JSON.stringify(device.properties[name]),
  );
  if (changesLink && !hasRole(user.orgRoles, device.orgID, MIN_ROLE.vendorLinks)) {
    throw forbidden(VENDOR_LINK_ADMIN_TEXT);
  }
}

/** updateDevice: the device's name, properties (merged) and its selected data points (replaced). */
export async function updateDevice(
  deps: DevicePorts,
  user: AuthUser,
  request: {
    devId: string;
    devType: number;
    version?: number;
    devName?: string;
    properties?: Record<string, unknown>;
    dataPoints?: DataPoint[];
  },
): Promise<DeviceAnswer> {
  const device = await change(deps, user, request, (current) => {
    const set: DeviceChange['set'] = {};
    if (request.devName !== undefined) set.devName = checkedName(request.devName);
    if (request.properties !== undefined) {
      assertMayLink(user, current, request.properties);
      // The icon choice (properties.conndev) is one of the device type's icons.
      const icon = request.properties.conndev;
      if (icon !== undefined && !iconChoicesOf(current.devType).includes(String(icon))) {
        throw validationError(ICON_NOT_AVAILABLE_TEXT);
      }
      set.properties = { ...current.properties, ...request.properties };
    }
    if (request.dataPoints !== undefined) {
      if (NEEDS_DATA_POINTS.includes(current.devType) && request.dataPoints.length === 0) {
        throw validationError(SELECT_DATA_POINTS_TEXT);
      }
      set.dataPoints = checkedDataPoints(request.dataPoints);
    }
    return set;
  });
  return {
    message: request.devName !== undefined ? DEVICE_NAME_UPDATED_TEXT : VALUE_UPDATED_TEXT,
    device: toDeviceView(device, deps.clock.now().getTime()),
  };
}

/** updateDeviceDataPoint: names (and values, read-only flags) of existing data points, by `dp`. */
export async function updateDataPoints(
  deps: DevicePorts,
  user: AuthUser,
  request: { devId: string; devType: number; version?: number; dataPoints: DataPoint[] },
): Promise<DeviceAnswer> {
  const device = await change(deps, user, request, (current) => ({
    dataPoints: mergedDataPoints(current.dataPoints ?? [], checkedDataPoints(request.dataPoints)),
  }));
  return { message: VALUE_UPDATED_TEXT, device: toDeviceView(device, deps.clock.now().getTime()) };
}

/** addThermistor: an IO device gains a thermistor child node (a second one replaces the first). */
export async function addThermistor(
  deps: DevicePorts,
  user: AuthUser,
  request: {
    devId: string;
    devType: number;
    devName: string;
    dataPoints: DataPoint[];
    childDevId?: string;
  },
): Promise<DeviceAnswer> {
  const device = await change(deps, user, request, (current) => {
    if (current.devType !== DeviceType.thermistor) throw validationError(DEVICE_MESSAGES.thermistorParent);
    return {
      devName: checkedName(request.devName),
      childNode: {
        type: 'thermistor',
        devID: request.childDevId ?? `${current.devID}:TH`,
        dataPoints: checkedDataPoints(request.dataPoints),
      },
    };
  });
  return { message: THERMISTOR_ADDED_TEXT, device: toDeviceView(device, deps.clock.now().getTime()) };
}
