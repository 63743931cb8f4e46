import type { DeviceView } from '@argentum/contracts';
import type { DeviceRequest } from '@argentum/contracts/requests';

/** A position on the plan, relative to its width and height (0-1). */
export interface PlanPoint {
  x: number;
  y: number;
}

/** What the drop form adds to a device placed for the first time (name, port, chosen data points). */
export interface DropDetails {
  devName?: string;
  port?: number;
  dataPoints?: DeviceView['dataPoints'];
}

export interface AddedDevice {
  device: DeviceView;
  origin: PlanPoint;
  details: DropDetails;
}

/**
 * One edit-mode session: the floor's devices as they were when editing began, and what the user did
 * since. Nothing is written until Save; Cancel drops the session (the baseline is the truth).
 */
export interface EditSession {
  /** The devices on the floor when editing began, by devID. */
  baseline: ReadonlyMap<string, DeviceView>;
  /** Devices dragged onto the floor from the off-floor list. */
  added: ReadonlyMap<string, AddedDevice>;
  /** Baseline devices dragged to a new position. */
  moved: ReadonlyMap<string, PlanPoint>;
  /** Baseline devices taken off the floor. */
  removed: ReadonlySet<string>;
}

export type EditAction =
  | { type: 'start'; devices: readonly DeviceView[] }
  | { type: 'add'; device: DeviceView; origin: PlanPoint; details?: DropDetails }
  | { type: 'move'; devID: string; origin: PlanPoint }
  | { type: 'remove'; devID: string }
  | { type: 'cancel' };

const clamp = (value: number) => Math.min(1, Math.max(0, value));
const clampPoint = (point: PlanPoint): PlanPoint => ({ x: clamp(point.x), y: clamp(point.y) });
const samePoint = (a: PlanPoint | undefined, b: PlanPoint | undefined) =>
  a !== undefined && b !== undefined && a.x === b.x && a.y === b.y;

export function startSession(devices: readonly DeviceView[]): EditSession {
  return {
    baseline: new Map(devices.filter((d) => d.onFloor).map((d) => [d.devID, d])),
    added: new Map(),
    moved: new Map(),
    removed: new Set(),
  };
}

export function editSessionReducer(session: EditSession, action: EditAction): EditSession {
  switch (action.type) {
    case 'start':
      return startSession(action.devices);
    case 'cancel':
      return startSession([...session.baseline.values()]);
    case 'add': {
      const origin = clampPoint(action.origin);
      const { devID } = action.device;
      const base = session.baseline.get(devID);
      if (base && session.removed.has(devID)) {
        // Taken off and put back in the same session: it is a move (or nothing) again.
        const removed = new Set(session.removed);
        removed.delete(devID);
        const moved = new Map(session.moved);
        if (samePoint(base.floorOrigin, origin)) moved.delete(devID);
        else moved.set(devID, origin);
        return { ...session, removed, moved };
      }
      if (base) return editSessionReducer(session, { type: 'move', devID, origin });
      const added = new Map(session.added);
      added.set(devID, { device: action.device, origin, details: action.details ?? {} });
      return { ...session, added };
    }
    case 'move': {
      const origin = clampPoint(action.origin);
      const entry = session.added.get(action.devID);
      if (entry) {
        const added = new Map(session.added);
        added.set(action.devID, { ...entry, origin });
        return { ...session, added };
      }
      const base = session.baseline.get(action.devID);
      if (!base || session.removed.has(action.devID)) return session;
      const moved = new Map(session.moved);
      if (samePoint(base.floorOrigin, origin)) moved.delete(action.devID);
      else moved.set(action.devID, origin);
      return { ...session, moved };
    }
    case 'remove': {
      if (session.added.has(action.devID)) {
        const added = new Map(session.added);
        added.delete(action.devID);
        return { ...session, added };
      }
      if (!session.baseline.has(action.devID)) return session;
      const removed = new Set(session.removed);
      removed.add(action.devID);
      const moved = new Map(session.moved);
      moved.delete(action.devID);
      return { ...session, removed, moved };
    }
  }
}

/** A device as edit mode shows it on the plan: where it is now, and whether this session placed it. */
export interface PlacedDevice {
  device: DeviceView;
  origin: PlanPoint;
  state: 'kept' | 'moved' | 'added';
}

export function placedDevices(session: EditSession): PlacedDevice[] {
  const placed: PlacedDevice[] = [];
  for (const device of session.baseline.values()) {
    if (session.removed.has(device.devID)) continue;
    const moved = session.moved.get(device.devID);
    const origin = moved ?? device.floorOrigin;
    if (!origin) continue;
    placed.push({ device, origin, state: moved ? 'moved' : 'kept' });
  }
  for (const entry of session.added.values()) {
    placed.push({ device: withDetails(entry), origin: entry.origin, state: 'added' });
  }
  return placed;
}

const withDetails = ({ device, details }: AddedDevice): DeviceView => ({
  ...device,
  ...(details.devName !== undefined ? { devName: details.devName } : {}),
  ...(details.port !== undefined ? { port: details.port } : {}),
  ...(details.dataPoints !== undefined ? { dataPoints: details.dataPoints } : {}),
});

/**
 * The off-floor list edit mode shows: the organization's devices on no floor, without those placed in
 * this session, with the floor's devices taken off in this session (they go back to the list).
 */
export function offFloorDevices(session: EditSession, offFloor: readonly DeviceView[]): DeviceView[] {
  const list = offFloor.filter((d) => !session.added.has(d.devID) && !session.baseline.has(d.devID));
  for (const devID of session.removed) {
    const device = session.baseline.get(devID);
    if (device) list.push(device);
  }
  return list;
}

export interface ChangeCounts {
  added: number;
  moved: number;
  removed: number;
}

export const changeCounts = (session: EditSession): ChangeCounts => ({
  added: session.added.size,
  moved: session.moved.size,
  removed: session.removed.size,
});

export const hasChanges = (session: EditSession) =>
  session.added.size + session.moved.size + session.removed.size > 0;

type FloorChange = DeviceRequest<'updateOnFloorStatus'>['dropDevicesList'][number];

/** Positions go to the server with 4 decimals: a tenth of a millimetre on a 100 m plan. */
const rounded = (point: PlanPoint): PlanPoint => ({
  x: Math.round(point.x * 10_000) / 10_000,
  y: Math.round(point.y * 10_000) / 10_000,
});

/** Edit mode's Save: every change of the session in one all-or-nothing /updateOnFloorStatus body. */
export function saveRequest(
  session: EditSession,
  floorID: string,
): DeviceRequest<'updateOnFloorStatus'> | null {
  const changes: FloorChange[] = [];
  for (const { device, origin, details } of session.added.values()) {
    changes.push({
      devID: device.devID,
      onFloor: true,
      floorOrigin: rounded(origin),
      ...(details.devName !== undefined ? { devName: details.devName } : {}),
      ...(details.port !== undefined ? { port: details.port } : {}),
      ...(details.dataPoints !== undefined
        ? { dataPoints: details.dataPoints.map(({ dp, dn, readonly }) => ({ dp, dn, readonly })) }
        : {}),
      version: device.version,
    });
  }
  for (const [devID, origin] of session.moved) {
    const device = session.baseline.get(devID);
    changes.push({ devID, onFloor: true, floorOrigin: rounded(origin), version: device?.version });
  }
  for (const devID of session.removed) {
    changes.push({ devID, onFloor: false, version: session.baseline.get(devID)?.version });
  }
  if (changes.length === 0) return null;
  return { floorID, onFloorStatus: true, dropDevicesList: changes };
}
