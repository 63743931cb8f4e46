import type { DataPointView, DeviceView } from '@argentum/events/contracts';

/** A data point of a device: its key, display name, value and whether it can be written. */
export type DataPoint = DataPointView;

/** A registered device as stored (specification: Device). */
export interface Device {
  devID: string;
  devName: string;
  devType: number;
  connDev?: string;
  port?: number | string;
  gatewayID?: string;
  /** The device's group (1000-9999), unique within its organization; absent when ungrouped. */
  groupNumber?: number;
  orgID: string;
  buildID?: string;
  floorID?: string;
  onFloor: boolean;
  /** Position relative to the plan: 0-1 of its width and height. */
  floorOrigin?: { x: number; y: number };
  dataPoints: DataPoint[];
  properties: Record<string, unknown>;
  childNode?: { type: 'thermistor'; devID: string; dataPoints: DataPoint[] };
  /** Latest value per data point, and when it arrived (epoch ms). */
  latest?: Record<string, number>;
  lastSeen?: number;
  updatedAt: string;
  /** Raised by every change made through the API (a missing version counts as 0). */
  version?: number;
}

export const versionOf = (device: Pick<Device, 'version'>) => device.version ?? 0;

/**
 * How often each device type reports (ms). A device is online while its last reading is at most
 * OFFLINE_AFTER_INTERVALS of its intervals old: one or two lost messages do not mark it offline.
 * Sensors report every 5 minutes; BACnet points and air flow every minute; gateways send a heartbeat
 * every minute; power nodes, contactors and switches report their state every 10 minutes.
 */
export const REPORT_INTERVAL_MS: Record<number, number> = {
  0: 60_000,
  1: 600_000,
  2: 300_000,
  3: 600_000,
  4: 300_000,
  5: 300_000,
  6: 600_000,
  7: 60_000,
  8: 300_000,
  9: 60_000,
};
export const OFFLINE_AFTER_INTERVALS = 3;

export function isOnline(device: Pick<Device, 'devType' | 'lastSeen'>, now: number): boolean {
  if (device.lastSeen === undefined) return false;
  const interval = REPORT_INTERVAL_MS[device.devType] ?? 300_000;
  return now - device.lastSeen <= OFFLINE_AFTER_INTERVALS * interval;
}

/** Kinds that are wired to a port (power nodes, IO devices, contactors): placing one needs the port. */
export const PORT_DEVICE_TYPES: readonly number[] = [1, 2, 3];
export const GATEWAY_TYPE = 0;
export const IEQ_TYPE = 5;
export const MOTION_TYPE = 4;

export function toDeviceView(device: Device, now: number): DeviceView {
  return {
    devID: device.devID,
    devName: device.devName,
    devType: device.devType,
    ...(device.connDev !== undefined ? { connDev: device.connDev } : {}),
    ...(device.port !== undefined ? { port: device.port } : {}),
    ...(device.gatewayID !== undefined ? { gatewayID: device.gatewayID } : {}),
    ...(device.groupNumber !== undefined ? { groupNumber: device.groupNumber } : {}),
    orgID: device.orgID,
    ...(device.onFloor && device.buildID !== undefined ? { buildID: device.buildID } : {}),
    ...(device.onFloor && device.floorID !== undefined ? { floorID: device.floorID } : {}),
    onFloor: device.onFloor,
    ...(device.onFloor && device.floorOrigin ? { floorOrigin: device.floorOrigin } : {}),
    dataPoints: device.dataPoints ?? [],
    properties: device.properties ?? {},
    ...(device.childNode ? { childNode: device.childNode } : {}),
    ...(device.latest ? { latest: device.latest } : {}),
    ...(device.lastSeen !== undefined ? { lastSeen: device.lastSeen } : {}),
    online: isOnline(device, now),
    updatedAt: device.updatedAt,
    version: versionOf(device),
  };
}
