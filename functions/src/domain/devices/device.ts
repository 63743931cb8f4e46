import type { DataPointView, DeviceView, PortName } from '@argentum/contracts';
import { presenceOf, type StoredPresence } from './presence';

export { OFFLINE_AFTER_INTERVALS, REPORT_INTERVAL_MS } from './presence';

/** A data point of a device: its key, display name, value and whether it can be written. */
export type DataPoint = DataPointView;

/** A power node's port values as stored in its properties (0 or 1 each). */
export type PortValues = Partial<Record<PortName, 0 | 1>>;

export type { PortName };

/**
 * A registered device as stored (specification: Device): the fields browsers are answered
 * (`DeviceView`, contracts) as they are kept, with what only the server holds. Presence and version are
 * stored as written; `online` is derived from presence (`toDeviceView`).
 */
export interface Device extends Omit<DeviceView, 'online' | 'presence' | 'version'> {
  /** Online or offline, why and since when (domain/devices/presence.ts); written only by presence. */
  presence?: StoredPresence;
  /**
   * Alarm episodes the device's readings opened (comfort alarms), counted once each after its state is
   * saved: ingest's per-instance memory of devices with no open episode holds only while this count
   * stays what it was (domain/notifications/alarms.ts `observeReadings`).
   */
  alarmsOpened?: number;
  /** Raised by every change made through the API (a missing version counts as 0). */
  version?: number;
}

export const versionOf = (device: Pick<Device, 'version'>) => device.version ?? 0;

/**
 * Whether a device is online: its presence record (domain/devices/presence.ts), the one model every
 * answer reads.
 */
export function isOnline(
  device: Pick<Device, 'devType' | 'lastSeen' | 'clockOffset' | 'presence'>,
  now: number,
): boolean {
  return presenceOf(device, now).online;
}


export function toDeviceView(device: Device, now: number): DeviceView {
  const presence = presenceOf(device, now);
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
    ...(device.latestAt ? { latestAt: device.latestAt } : {}),
    ...(device.lastSeen !== undefined ? { lastSeen: device.lastSeen } : {}),
    ...(device.clockOffset !== undefined ? { clockOffset: device.clockOffset } : {}),
    ...(device.portReportedAt ? { portReportedAt: device.portReportedAt } : {}),
    online: presence.online,
    presence,
    updatedAt: device.updatedAt,
    version: versionOf(device),
  };
}
