import type { QueryClient } from '@tanstack/react-query';
import type { LiveDeviceUpdate, PortReport } from '@argentum/contracts/messaging';
import {
  deviceMessageText,
  deviceValueChangedText,
  deviceValueChangeFailedText,
  MOTION_DATA_POINT,
  type DeviceView,
  type FloorDevicesAnswer,
} from '@argentum/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { floorPlanQueries } from './floorPlanQueries';

/**
 * A live change of one device: the fields that changed (latest values merge per data point, a power
 * node's port values into its properties).
 */
export type DeviceUpdate = { devID: string; ports?: LiveDeviceUpdate['ports'] } & Partial<
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
  const ports = into.ports || update.ports ? { ...into.ports, ...update.ports } : undefined;
  return { ...into, ...update, ...(latest ? { latest } : {}), ...(ports ? { ports } : {}) };
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
  let countsMoved = false;
  queryClient.setQueryData<FloorDevicesAnswer>(floorPlanQueries.devicesKey(floorId), (answer) => {
    if (!answer) return answer;
    countsMoved = movesCounts(answer.devices, pending);
    return { ...answer, devices: mergeDevices(answer.devices, pending) };
  });
  // A presence change, or a motion sensor's occupancy, moves the Floor details counts too: read
  // them again.
  if (countsMoved) void queryClient.invalidateQueries({ queryKey: floorPlanQueries.countsKey(floorId) });
}

/**
 * Whether `updates` change what the Floor details count: a device's presence, or a motion sensor's
 * state (its occupied count).
 */
export function movesCounts(
  devices: readonly DeviceView[],
  updates: ReadonlyMap<string, DeviceUpdate>,
): boolean {
  const byId = new Map(devices.map((device) => [device.devID, device]));
  for (const update of updates.values()) {
    if (update.presence !== undefined) return true;
    const mState = update.latest?.[MOTION_DATA_POINT];
    if (mState !== undefined && mState !== byId.get(update.devID)?.latest?.[MOTION_DATA_POINT]) return true;
  }
  return false;
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
    const { devID: _devID, latest, ports, ...fields } = update;
    const properties = fields.properties ?? device.properties;
    return {
      ...device,
      ...fields,
      ...(latest ? { latest: { ...device.latest, ...latest } } : {}),
      ...(ports ? { properties: { ...properties, ...ports } } : {}),
    };
  });
  return changed ? next : devices;
}

/** A power node's last word on its port values, as its panel shows it. */
export interface PortReportView {
  report: PortReport;
  /** 'Value changed to {val}' or 'Value change failed'. */
  text: string;
}

/** Where a device's last port report is kept (written by applyLiveUpdates, read by its panel). */
export const portReportKey = (devID: string) => ['port-report', devID] as const;

/**
 * A floor's live message: its devices' changes merged as applyDeviceUpdates does, and each power
 * node's word on its port values (201/202/203) at once: kept for its panel ('Value changed to {val}',
 * 'Value change failed') and toasted with its name ('<device>: Value changed to <value>', or
 * '<device>: Value change failed'). A device not on the cached floor is not announced.
 */
export function applyLiveUpdates(
  queryClient: QueryClient,
  floorId: string,
  updates: readonly LiveDeviceUpdate[],
): void {
  const devices = queryClient.getQueryData<FloorDevicesAnswer>(floorPlanQueries.devicesKey(floorId))?.devices;
  for (const { portReport, devID } of updates) {
    const device = portReport && devices?.find((d) => d.devID === devID);
    if (!portReport || !device) continue;
    const text = deviceMessageText(portReport.outcome, portReport) ?? '';
    queryClient.setQueryData<PortReportView>(portReportKey(devID), { report: portReport, text });
    if (portReport.outcome === 'success')
      showToast(deviceValueChangedText(device.devName, portReport.val), 'success');
    else showToast(deviceValueChangeFailedText(device.devName), 'warning');
  }
  applyDeviceUpdates(
    queryClient,
    floorId,
    updates.map(({ portReport: _report, ...update }) => update),
  );
}
