import type { QueryClient } from '@tanstack/react-query';
import type { DeviceView, FloorDevicesAnswer } from '@argentum/events/contracts';
import { floorPlanQueries } from './floorPlanQueries';

/** A live change of one device: the fields that changed (latest values merge per data point). */
export type DeviceUpdate = { devID: string } & Partial<
  Pick<
    DeviceView,
    | 'latest'
    | 'lastSeen'
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
 * At most this many cache writes (and so renders) per second and floor: live values arrive far more
 * often (2,000 changes a second on a big floor), and nobody reads a value that changes faster.
 */
const DEVICE_UPDATE_INTERVAL_MS = 250;

interface FloorQueue {
  updates: Map<string, DeviceUpdate>;
  scheduled: boolean;
  lastFlush: number;
}

const queues = new WeakMap<QueryClient, Map<string, FloorQueue>>();

const nextFrame = (run: () => void) =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : setTimeout(run, 0);

function merge(into: DeviceUpdate | undefined, update: DeviceUpdate): DeviceUpdate {
  if (!into) return update;
  const latest =
    into.latest && update.latest ? { ...into.latest, ...update.latest } : (update.latest ?? into.latest);
  return { ...into, ...update, ...(latest ? { latest } : {}) };
}

function queueOf(queryClient: QueryClient, floorId: string): FloorQueue {
  let floors = queues.get(queryClient);
  if (!floors) queues.set(queryClient, (floors = new Map()));
  let queue = floors.get(floorId);
  if (!queue) floors.set(floorId, (queue = { updates: new Map(), scheduled: false, lastFlush: 0 }));
  return queue;
}

/**
 * Merges live device values into a floor's cached devices, coalesced: updates are collected and
 * written at most every DEVICE_UPDATE_INTERVAL_MS, in an animation frame, as one cache write. Only the
 * changed devices get new objects, so only their markers and rows render again. Updates of devices
 * that are not on the cached floor (or a floor that is not loaded) are dropped.
 */
export function applyDeviceUpdates(
  queryClient: QueryClient,
  floorId: string,
  updates: readonly DeviceUpdate[],
): void {
  if (updates.length === 0) return;
  const queue = queueOf(queryClient, floorId);
  for (const update of updates)
    queue.updates.set(update.devID, merge(queue.updates.get(update.devID), update));
  if (queue.scheduled) return;
  queue.scheduled = true;
  const wait = Math.max(0, queue.lastFlush + DEVICE_UPDATE_INTERVAL_MS - Date.now());
  setTimeout(() => nextFrame(() => flushDeviceUpdates(queryClient, floorId)), wait);
}

/** Writes a floor's pending updates now (the scheduler's flush; tests call it to skip the wait). */
export function flushDeviceUpdates(queryClient: QueryClient, floorId: string): void {
  const queue = queueOf(queryClient, floorId);
  queue.scheduled = false;
  queue.lastFlush = Date.now();
  if (queue.updates.size === 0) return;
  const pending = queue.updates;
  queue.updates = new Map();
  queryClient.setQueryData<FloorDevicesAnswer>(floorPlanQueries.devicesKey(floorId), (answer) =>
    answer ? { ...answer, devices: mergeDevices(answer.devices, pending) } : answer,
  );
  // A presence change moves the Floor details counts too: read them again.
  if ([...pending.values()].some((update) => update.presence !== undefined))
    void queryClient.invalidateQueries({ queryKey: floorPlanQueries.countsKey(floorId) });
}

/** The devices with the updates applied; unchanged devices keep their objects (and the list its order). */
export function mergeDevices(
  devices: DeviceView[],
  updates: ReadonlyMap<string, DeviceUpdate>,
): DeviceView[] {
  let changed = false;
  const next = devices.map((device) => {
    const update = updates.get(device.devID);
    if (!update) return device;
    changed = true;
    const { devID: _devID, latest, ...fields } = update;
    return {
      ...device,
      ...fields,
      ...(latest ? { latest: { ...device.latest, ...latest } } : {}),
    };
  });
  return changed ? next : devices;
}
