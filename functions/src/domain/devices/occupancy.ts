import { DeviceType, MOTION_DATA_POINT } from '@argentum/contracts';
import { type Device, isOnline } from './device';

type OccupancyDevice = Pick<Device, 'devType' | 'latest' | 'lastSeen' | 'clockOffset' | 'presence'>;

/** A motion sensor that is online and reports its room occupied now. */
export const reportsOccupied = (device: OccupancyDevice, now: number): boolean =>
  device.devType === DeviceType.motion && device.latest?.[MOTION_DATA_POINT] === 1 && isOnline(device, now);

/**
 * Whether people are on a floor now, as far as its devices tell: an online motion sensor reports
 * occupied. A floor with no online motion sensor tells nothing, and counts as in use (a missing or
 * broken sensor must not silence what it cannot see).
 */
export function floorInUse(devicesOnFloor: readonly OccupancyDevice[], now: number): boolean {
  const motion = devicesOnFloor.filter((d) => d.devType === DeviceType.motion && isOnline(d, now));
  return motion.length === 0 || motion.some((d) => reportsOccupied(d, now));
}
