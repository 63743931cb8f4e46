import { latestTimeOf } from '@argentum/contracts';
import type { Device } from './device';

/** What a device holds of its readings: latest value and time per data point, and its newest reading's time. */
export type LatestValues = Pick<Device, 'latest' | 'latestAt' | 'lastSeen'>;

/**
 * A reading taken into a device's latest values, point by point: a point takes the reading's value
 * unless the device holds a newer one of it (a value held without its own time, stored before those
 * were kept, is as old as the device's time), so a reading of some points leaves the others, and one
 * older than the device's time still brings the points it is the newest word on. The device's time is
 * its newest reading's. Undefined when the reading brings nothing newer.
 */
export function takeReading(
  held: LatestValues,
  time: number,
  values: Record<string, number>,
): Required<LatestValues> | undefined {
  const heldAt = (point: string) => latestTimeOf(held, point);
  const winning = Object.entries(values).filter(([point]) => (heldAt(point) ?? time) <= time);
  const newer = held.lastSeen === undefined || held.lastSeen <= time;
  if (winning.length === 0 && !newer) return undefined;
  const heldTimes = Object.keys(held.latest ?? {}).flatMap((point) => {
    const at = heldAt(point);
    return at === undefined ? [] : [[point, at] as const];
  });
  return {
    latest: { ...held.latest, ...Object.fromEntries(winning) },
    latestAt: { ...Object.fromEntries(heldTimes), ...Object.fromEntries(winning.map(([point]) => [point, time])) },
    lastSeen: newer || held.lastSeen === undefined ? time : held.lastSeen,
  };
}
