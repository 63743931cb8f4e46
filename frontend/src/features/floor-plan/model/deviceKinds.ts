import { DeviceType, deviceTypeName, thirdPartyDisplayName, type ConnDev } from '@argentum/contracts';
import type { DeviceView } from '@argentum/contracts';

/** The icons the plan draws (components/DeviceIcons.tsx holds one symbol each). */
export type IconName =
  | 'gateway'
  | 'node'
  | 'powernode'
  | 'light'
  | 'thermistor'
  | 'motion'
  | 'ieq'
  | 'switch'
  | 'bacnet'
  | 'thermostat'
  | 'shades'
  | 'lock'
  | 'valve'
  | 'airflow';

const CONN_DEV_ICONS: Partial<Record<ConnDev | 'node' | 'powernode', IconName>> = {
  light: 'light',
  lock: 'lock',
  shades: 'shades',
  rollershades: 'shades',
  honeywell: 'thermostat',
  nest: 'thermostat',
  thermostat: 'thermostat',
  ecobee: 'thermostat',
  valve: 'valve',
  node: 'node',
  powernode: 'powernode',
};

/**
 * The icon of a device: by its type, refined by what it presents itself as (properties.conndev, the
 * icon choice: types 2 and 3 node, type 1 node or powernode, third-party shades or ecobee) and by what
 * it is connected to (connDev).
 */
export function iconOf(device: Pick<DeviceView, 'devType' | 'connDev' | 'properties'>): IconName {
  const iconChoice = typeof device.properties.conndev === 'string' ? device.properties.conndev : undefined;
  switch (device.devType) {
    case DeviceType.gateway:
      return 'gateway';
    case DeviceType.powerNode:
      return iconChoice === 'node' ? 'node' : 'powernode';
    case DeviceType.thermistor:
    case DeviceType.contactor:
      return device.connDev === 'lock' || device.connDev === 'valve' || device.connDev === 'rollershades'
        ? (CONN_DEV_ICONS[device.connDev] ?? 'node')
        : device.devType === DeviceType.thermistor && device.properties.type === 'thermistor'
          ? 'thermistor'
          : 'node';
    case DeviceType.motion:
      return 'motion';
    case DeviceType.ieq:
      return 'ieq';
    case DeviceType.switch:
      return 'switch';
    case DeviceType.bacnet:
      return 'bacnet';
    case DeviceType.thirdParty: {
      const key = (iconChoice ?? device.connDev) as ConnDev | undefined;
      return (key && CONN_DEV_ICONS[key]) || 'thermostat';
    }
    case DeviceType.airFlow:
      return 'airflow';
    default:
      return 'node';
  }
}

/** Marker colour per device type (the legend uses the same). */
export const TYPE_COLOURS: Record<number, string> = {
  0: '#334155',
  1: '#d97706',
  2: '#0f766e',
  3: '#7c3aed',
  4: '#16a34a',
  5: '#0369a1',
  6: '#9333ea',
  7: '#b45309',
  8: '#be185d',
  9: '#0891b2',
};
/** Motion sensors: green when unoccupied, red when occupied. */
export const OCCUPIED_COLOUR = '#dc2626';

export const typeName = deviceTypeName;

/** The kind a user reads in a popup or list: third-party devices by their product. */
export function kindName(device: Pick<DeviceView, 'devType' | 'connDev' | 'properties'>): string {
  if (device.devType === DeviceType.thirdParty) {
    const key = (
      typeof device.properties.conndev === 'string' ? device.properties.conndev : device.connDev
    ) as ConnDev | undefined;
    const name = key ? thirdPartyDisplayName[key] : undefined;
    if (name) return name;
  }
  return typeName(device.devType);
}

/** The motion state of a motion sensor (1 occupied). */
export const motionState = (device: Pick<DeviceView, 'latest'>): number | undefined => device.latest?.mState;

/** Whether the device was ever registered on the platform (it has reported at least once). */
export const isRegistered = (device: Pick<DeviceView, 'lastSeen'>) => device.lastSeen !== undefined;
