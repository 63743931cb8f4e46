import type { DeviceView } from '@argentum/contracts';
import { motionState } from './deviceKinds';

/** A device's data points as its marker names them (`data-datapoints`): their keys, in order. */
export const markerDataPoints = (device: Pick<DeviceView, 'dataPoints'>): string =>
  device.dataPoints.map((point) => point.dp).join(',');

/**
 * What a marker on the plan shows of its device changed (a new reading alone changes none of it):
 * position, kind, name, group, online, registered, connection, port, data points, properties and the
 * motion state.
 */
export function sameMarkerDevice(a: DeviceView, b: DeviceView): boolean {
  return (
    a === b ||
    (a.floorOrigin?.x === b.floorOrigin?.x &&
      a.floorOrigin?.y === b.floorOrigin?.y &&
      a.devType === b.devType &&
      a.devName === b.devName &&
      a.groupNumber === b.groupNumber &&
      a.online === b.online &&
      (a.lastSeen === undefined) === (b.lastSeen === undefined) &&
      a.connDev === b.connDev &&
      a.port === b.port &&
      (a.dataPoints === b.dataPoints || markerDataPoints(a) === markerDataPoints(b)) &&
      a.properties === b.properties &&
      motionState(a) === motionState(b))
  );
}

/**
 * The devices the markers show, one subscription per marker: `sync` takes the floor's devices after
 * each (batched) live update and tells only the markers whose device changed what they show, so 2,000
 * value changes a second render a handful of markers, not the layer. The list of ids keeps its
 * identity while the floor's device list (which devices, in which order) stays the same.
 */
export class MarkerStore {
  private devices = new Map<string, DeviceView>();
  private listeners = new Map<string, Set<() => void>>();
  private listListeners = new Set<() => void>();
  private idList: readonly string[] = [];

  constructor(devices: readonly DeviceView[] = []) {
    this.sync(devices);
  }

  /** Takes the current devices and tells the markers (and the list) that changed. */
  sync(devices: readonly DeviceView[]): void {
    const changed: string[] = [];
    const next = new Map<string, DeviceView>();
    let sameList = devices.length === this.idList.length;
    devices.forEach((device, at) => {
      if (sameList && this.idList[at] !== device.devID) sameList = false;
      const before = this.devices.get(device.devID);
      if (before && sameMarkerDevice(before, device)) next.set(device.devID, before);
      else {
        next.set(device.devID, device);
        if (before) changed.push(device.devID);
      }
    });
    this.devices = next;
    for (const id of changed) for (const listener of this.listeners.get(id) ?? []) listener();
    if (!sameList) {
      this.idList = devices.map((device) => device.devID);
      for (const listener of this.listListeners) listener();
    }
  }

  /** The ids of the devices, in order: the same array while the list is the same. */
  readonly ids = (): readonly string[] => this.idList;

  /** The device as its marker shows it (a new object only when what the marker shows changed). */
  get(id: string): DeviceView | undefined {
    return this.devices.get(id);
  }

  subscribe(id: string, listener: () => void): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(id);
    };
  }

  readonly subscribeList = (listener: () => void): (() => void) => {
    this.listListeners.add(listener);
    return () => this.listListeners.delete(listener);
  };
}
