import type { LiveDeviceUpdate } from '@argentum/contracts/messaging';
import {
  type DeviceView,
  type FloorDevicesAnswer,
  latestTimeOf,
  latestTimes,
  newerPoints,
  type PortName,
} from '@argentum/contracts';

/**
 * A live change of one device: the fields that changed (latest values and their times merge per data
 * point, a power node's port values into its properties, each with the time it was reported in
 * `portReportedAt`).
 */
export type DeviceUpdate = { devID: string; ports?: LiveDeviceUpdate['ports'] } & Partial<
  Pick<
    DeviceView,
    | 'latest'
    | 'latestAt'
    | 'lastSeen'
    | 'clockOffset'
    | 'portReportedAt'
    | 'online'
    | 'presence'
    | 'devName'
    | 'properties'
    | 'groupNumber'
    | 'floorOrigin'
    | 'dataPoints'
    | 'updatedAt'
    | 'version'
  >
>;

/**
 * What a device's values and presence are as of: the time of each latest value and of its newest
 * reading, of its presence decision, of each port value's report.
 */
type Held = Pick<DeviceUpdate, 'latest' | 'latestAt' | 'lastSeen' | 'presence' | 'portReportedAt'>;

/** Whether a time is known to be before another (an unknown time is never older). */
const before = (time: number | undefined, than: number | undefined) =>
  time !== undefined && than !== undefined && time < than;

const PORTS: readonly PortName[] = ['portOneValue', 'portTwoValue'];

/** The update's port values (and their times) without those reported before the ones held. */
function withoutStalePorts(held: Held, update: DeviceUpdate): DeviceUpdate {
  const { ports, portReportedAt, ...rest } = update;
  if (!ports) return update;
  let fresh: DeviceUpdate['ports'];
  let times: DeviceUpdate['portReportedAt'];
  for (const port of PORTS) {
    const value = ports[port];
    const at = portReportedAt?.[port];
    if (value === undefined || before(at, held.portReportedAt?.[port])) continue;
    fresh = { ...fresh, [port]: value };
    if (at !== undefined) times = { ...times, [port]: at };
  }
  if (fresh === undefined) return rest;
  return { ...rest, ports: fresh, ...(times ? { portReportedAt: times } : {}) };
}

/** The update's latest values without those older than the ones held of their points (`newerPoints`). */
function withoutStaleValues(held: Held, update: DeviceUpdate): DeviceUpdate {
  const { latest, latestAt: _latestAt, lastSeen, clockOffset, ...rest } = update;
  const taken = latest ? newerPoints(held, update) : undefined;
  // The clock's offset goes with the device's newest reading.
  const newest = lastSeen !== undefined && !before(lastSeen, held.lastSeen);
  return {
    ...rest,
    ...(taken && Object.keys(taken.latest).length > 0 ? { latest: taken.latest } : {}),
    ...(taken && Object.keys(taken.latestAt).length > 0 ? { latestAt: taken.latestAt } : {}),
    ...(newest ? { lastSeen } : {}),
    ...(newest && clockOffset !== undefined ? { clockOffset } : {}),
  };
}

/**
 * The update without what is older than what is held: a value older than the one held of its point
 * (`latestAt`; the device's time stays its newest reading's), a presence decided before the one held
 * (`presence.at`). Messages do not always arrive
 * in the order things happened (a presence sweep publishes its decisions after a reading it did not
 * see; an answer of the API read before a live message lands after it), and an older word must not
 * undo a newer one: nothing would correct it until the device's next change.
 */
export function withoutStale(held: Held | undefined, update: DeviceUpdate): DeviceUpdate {
  if (!held) return update;
  let fresh = withoutStaleValues(held, update);
  if (before(fresh.presence?.at, held.presence?.at)) {
    const { online: _online, presence: _presence, ...rest } = fresh;
    fresh = rest;
  }
  return withoutStalePorts(held, fresh);
}

/** Two records of values by point as one, the later one's winning. */
const mergedRecord = <T>(into: Record<string, T> | undefined, fresh: Record<string, T> | undefined) =>
  into && fresh ? { ...into, ...fresh } : (fresh ?? into);

/** Two updates of one device as one, the later one's fields winning unless they are older. */
export function mergeUpdates(into: DeviceUpdate | undefined, update: DeviceUpdate): DeviceUpdate {
  if (!into) return update;
  const fresh = withoutStale(into, update);
  const latest = mergedRecord(into.latest, fresh.latest);
  const latestAt = mergedRecord(into.latestAt, fresh.latestAt);
  const ports = into.ports || fresh.ports ? { ...into.ports, ...fresh.ports } : undefined;
  const portReportedAt =
    into.portReportedAt || fresh.portReportedAt
      ? { ...into.portReportedAt, ...fresh.portReportedAt }
      : undefined;
  return {
    ...into,
    ...fresh,
    ...(latest ? { latest } : {}),
    ...(latestAt ? { latestAt } : {}),
    ...(ports ? { ports } : {}),
    ...(portReportedAt ? { portReportedAt } : {}),
  };
}

/**
 * The devices with the updates applied (what is older than a device holds is left out);
 * unchanged devices keep their objects (and the list its order).
 */
export function mergeDevices(
  devices: DeviceView[],
  updates: ReadonlyMap<string, DeviceUpdate>,
): DeviceView[] {
  let changed = false;
  const next = devices.map((device) => {
    const given = updates.get(device.devID);
    if (!given) return device;
    const { devID: _devID, latest, latestAt, ports, portReportedAt, ...fields } = withoutStale(device, given);
    if (!latest && !ports && Object.keys(fields).length === 0) return device;
    changed = true;
    const properties = fields.properties ?? device.properties;
    return {
      ...device,
      ...fields,
      ...(latest ? { latest: { ...device.latest, ...latest } } : {}),
      // Values held without their own time keep the device's time as theirs while it moves on.
      ...(latestAt ? { latestAt: { ...latestTimes(device), ...latestAt } } : {}),
      ...(ports ? { properties: { ...properties, ...ports } } : {}),
      ...(portReportedAt ? { portReportedAt: { ...device.portReportedAt, ...portReportedAt } } : {}),
    };
  });
  return changed ? next : devices;
}

/**
 * The port values `mine` holds that were reported after the answer's (or that the answer has no
 * time for), with their times; undefined when there are none.
 */
function newerPorts(mine: DeviceView, answered: DeviceView) {
  let values: Partial<Record<PortName, unknown>> | undefined;
  let times: DeviceView['portReportedAt'];
  for (const port of PORTS) {
    const at = mine.portReportedAt?.[port];
    const theirs = answered.portReportedAt?.[port];
    if (at === undefined || !(theirs === undefined || theirs < at)) continue;
    values = { ...values, [port]: mine.properties[port] };
    times = { ...times, [port]: at };
  }
  return values && times ? { values, times } : undefined;
}

/**
 * The latest values `mine` holds that were read after the answer's of their points (or that the
 * answer has no time for), with their times; undefined when there are none.
 */
function newerValues(mine: DeviceView, answered: DeviceView) {
  const taken = newerPoints(answered, mine);
  const points = Object.keys(taken.latest).filter((point) => {
    const theirs = latestTimeOf(answered, point);
    return theirs === undefined || before(theirs, taken.latestAt[point]);
  });
  if (points.length === 0) return undefined;
  const pick = (record: Record<string, number>) =>
    Object.fromEntries(
      points.flatMap((point) => (point in record ? [[point, record[point] as number]] : [])),
    );
  return { latest: pick(taken.latest), latestAt: pick(taken.latestAt) };
}

/**
 * A floor's answer from the API, kept from undoing what the page already holds that is newer: the
 * readings, presence decisions and port values that arrived live while the answer was being read.
 * Everything else (names, places, configuration, devices added or removed) is the answer's.
 */
export function keepNewer(
  held: FloorDevicesAnswer | undefined,
  answer: FloorDevicesAnswer,
): FloorDevicesAnswer {
  if (!held) return answer;
  const heldById = new Map(held.devices.map((device) => [device.devID, device]));
  const devices = answer.devices.map((device) => {
    const mine = heldById.get(device.devID);
    if (!mine) return device;
    const values = newerValues(mine, device);
    const newerSeen =
      before(device.lastSeen, mine.lastSeen) ||
      (device.lastSeen === undefined && mine.lastSeen !== undefined);
    const newerPresence =
      before(device.presence?.at, mine.presence?.at) ||
      (device.presence === undefined && mine.presence !== undefined);
    const ports = newerPorts(mine, device);
    if (!values && !newerSeen && !newerPresence && !ports) return device;
    return {
      ...device,
      ...(values
        ? {
            latest: { ...device.latest, ...values.latest },
            latestAt: { ...latestTimes(device), ...values.latestAt },
          }
        : {}),
      // The clock's offset goes with the device's newest reading.
      ...(newerSeen ? { lastSeen: mine.lastSeen } : {}),
      ...(newerSeen && mine.clockOffset !== undefined ? { clockOffset: mine.clockOffset } : {}),
      ...(newerPresence ? { online: mine.online, presence: mine.presence } : {}),
      ...(ports
        ? {
            properties: { ...device.properties, ...ports.values },
            portReportedAt: { ...device.portReportedAt, ...ports.times },
          }
        : {}),
    };
  });
  return { ...answer, devices };
}
