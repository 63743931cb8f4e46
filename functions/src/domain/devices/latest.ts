import { type LatestValues, latestTimes, newerPoints } from '@argentum/contracts';

/**
 * A reading taken into a device's latest values, point by point (`newerPoints`: a point takes the
 * reading's value unless the device holds a newer one of it), each point with its time; the device's
 * time is its newest reading's. Undefined when the reading brings nothing newer. Values held without
 * their own time (stored before those were kept) keep the device's time as theirs.
 */
export function takeReading(
  held: LatestValues,
  time: number,
  values: Record<string, number>,
): Required<LatestValues> | undefined {
  const taken = newerPoints(held, { latest: values, lastSeen: time });
  const newer = isNewestReading(held, time);
  if (Object.keys(taken.latest).length === 0 && !newer) return undefined;
  return {
    latest: { ...held.latest, ...taken.latest },
    latestAt: { ...latestTimes(held), ...taken.latestAt },
    lastSeen: newer || held.lastSeen === undefined ? time : held.lastSeen,
  };
}

/**
 * Whether a reading at `time` is the device's newest (none later seen): only such a one of its own tells
 * its clock's offset as it is now (Device `clockOffset`).
 */
export const isNewestReading = (held: Pick<LatestValues, 'lastSeen'>, time: number): boolean =>
  held.lastSeen === undefined || held.lastSeen <= time;
