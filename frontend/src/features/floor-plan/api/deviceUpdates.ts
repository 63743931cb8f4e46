import type { QueryClient } from '@tanstack/react-query';
import { Command, type LiveDeviceUpdate, type PortReport } from '@argentum/contracts/messaging';
import {
  deviceMessageText,
  deviceValueChangedText,
  deviceValueChangeFailedText,
  MOTION_DATA_POINT,
  type DeviceView,
  type FloorDevicesAnswer,
  type PortName,
} from '@argentum/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { type DeviceUpdate, mergeDevices, mergeUpdates } from './deviceMerge';
import { floorPlanQueries } from './floorPlanQueries';

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
 * changed devices get new objects, so only their markers and rows render again. What is older than a
 * device already holds is left out (deviceMerge.ts). Updates that arrive while the floor's first
 * answer is being read wait for it; those of devices not on the cached floor, or of a floor that is
 * not being shown, are dropped.
 */
export function applyDeviceUpdates(
  queryClient: QueryClient,
  floorId: string,
  updates: readonly DeviceUpdate[],
): void {
  if (updates.length === 0) return;
  const queue = queueOf(queryClient, floorId);
  for (const update of updates)
    queue.updates.set(update.devID, mergeUpdates(queue.updates.get(update.devID), update));
  schedule(queryClient, floorId, queue);
}

function schedule(queryClient: QueryClient, floorId: string, queue: FloorQueue): void {
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
  const key = floorPlanQueries.devicesKey(floorId);
  if (queryClient.getQueryData(key) === undefined) {
    // The floor's first answer is on its way: what arrived before it is kept for it (the answer may
    // have been read before), and written once it is there. A floor not being read: dropped.
    if (queryClient.getQueryState(key)?.fetchStatus === 'fetching') schedule(queryClient, floorId, queue);
    else queue.updates.clear();
    return;
  }
  const pending = queue.updates;
  queue.updates = new Map();
  let countsMoved = false;
  queryClient.setQueryData<FloorDevicesAnswer>(key, (answer) => {
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

/** A power node's last word on its port values, as its panel shows it. */
export interface PortReportView {
  report: PortReport;
  /** 'Value changed to {val}' or 'Value change failed'. */
  text: string;
}

/** Where a device's last port report is kept (written by applyLiveUpdates, read by its panel). */
export const portReportKey = (devID: string) => ['port-report', devID] as const;

/** The ports a power node's report is about: 201 port one, 202 port two, 203 both. */
const REPORTED_PORTS: Record<PortReport['cmnd'], readonly PortName[]> = {
  [Command.portOneValue]: ['portOneValue'],
  [Command.portTwoValue]: ['portTwoValue'],
  [Command.portBothValue]: ['portOneValue', 'portTwoValue'],
};

/**
 * Per query client (so per page), device and port: the newest report about it (a success or a
 * failure), which its panel shows and the toast announced. Kept for the page's life (a cache entry
 * could be collected while no panel shows it, and an older report would then be announced again).
 */
const heldWords = new WeakMap<QueryClient, Map<string, Partial<Record<PortName, PortReport>>>>();

function heldWordsOf(queryClient: QueryClient, devID: string): Partial<Record<PortName, PortReport>> {
  let devices = heldWords.get(queryClient);
  if (!devices) heldWords.set(queryClient, (devices = new Map()));
  let held = devices.get(devID);
  if (!held) devices.set(devID, (held = {}));
  return held;
}

const sameReport = (a: PortReport, b: PortReport) =>
  a.at === b.at && a.cmnd === b.cmnd && a.outcome === b.outcome && a.val === b.val;

/**
 * Whether a power node's report is news: a newer word than the page holds on at least one of its
 * ports (by the report's broker time `at`), which the page then holds. The real-time channel can
 * deliver two pushes out of order (a reconnect's replay, two publishers): an older report arriving
 * later, or the same report again, is neither shown nor toasted.
 */
function isNews(held: Partial<Record<PortName, PortReport>>, report: PortReport): boolean {
  let news = false;
  for (const port of REPORTED_PORTS[report.cmnd]) {
    const word = held[port];
    if (word && word.at > report.at) continue;
    if (!word || word.at < report.at || !sameReport(word, report)) news = true;
    held[port] = report;
  }
  return news;
}

/** The reported port values with the time of their report, as the device's `portReportedAt`. */
function reportedAt(ports: LiveDeviceUpdate['ports'], at: number): DeviceUpdate['portReportedAt'] {
  let times: DeviceUpdate['portReportedAt'];
  for (const [port, value] of Object.entries(ports ?? {}) as [PortName, 0 | 1 | undefined][])
    if (value !== undefined) times = { ...times, [port]: at };
  return times;
}

/**
 * A floor's live message: its devices' changes merged as applyDeviceUpdates does, and each power
 * node's word on its port values (201/202/203) at once: kept for its panel ('Value changed to {val}',
 * 'Value change failed') and toasted with its name ('<device>: Value changed to <value>', or
 * '<device>: Value change failed'). A device not on the cached floor is not announced. Per device and
 * port the newest report by its time wins: an older one arriving later changes no value (deviceMerge.ts)
 * and is not announced, nor is the same report again (isNews).
 */
export function applyLiveUpdates(
  queryClient: QueryClient,
  floorId: string,
  updates: readonly LiveDeviceUpdate[],
): void {
  const devices = queryClient.getQueryData<FloorDevicesAnswer>(floorPlanQueries.devicesKey(floorId))?.devices;
  const merged: DeviceUpdate[] = [];
  for (const { portReport, ...update } of updates) {
    if (!portReport) {
      merged.push(update);
      continue;
    }
    // Its values go with their report's time: an older one than the page holds is left out (deviceMerge.ts).
    const times = reportedAt(update.ports, portReport.at);
    merged.push(times ? { ...update, portReportedAt: times } : update);
    const device =
      isNews(heldWordsOf(queryClient, update.devID), portReport) &&
      devices?.find((d) => d.devID === update.devID);
    if (!device) continue;
    const text = deviceMessageText(portReport.outcome, portReport) ?? '';
    queryClient.setQueryData<PortReportView>(portReportKey(update.devID), { report: portReport, text });
    if (portReport.outcome === 'success')
      showToast(deviceValueChangedText(device.devName, portReport.val), 'success');
    else showToast(deviceValueChangeFailedText(device.devName), 'warning');
  }
  applyDeviceUpdates(queryClient, floorId, merged);
}
