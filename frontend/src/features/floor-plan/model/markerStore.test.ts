import { describe, expect, it } from 'vitest';
import { benchDevices } from '../../../../e2e/floor-view-bench/fixtures';
import { mergeDevices, type DeviceUpdate } from '../api/deviceMerge';
import { markerDataPoints, MarkerStore } from './markerStore';

const floor = () => benchDevices(6, 0).devices;
const update = (devices: ReturnType<typeof floor>, ...updates: DeviceUpdate[]) =>
  mergeDevices(devices, new Map(updates.map((change) => [change.devID, change])));

describe('the marker store: one subscription per marker', () => {
  it('tells no marker and keeps the list when only readings change', () => {
    const devices = floor();
    const store = new MarkerStore(devices);
    const ids = store.ids();
    const told: string[] = [];
    for (const { devID } of devices) store.subscribe(devID, () => told.push(devID));
    let listTold = 0;
    store.subscribeList(() => listTold++);
    const [first, , light] = devices;
    store.sync(
      update(
        devices,
        { devID: first?.devID ?? '', latest: { temp: 30 }, lastSeen: 5 },
        { devID: light?.devID ?? '', latest: { bri: 70 } },
      ),
    );
    expect(told).toEqual([]);
    expect(listTold).toBe(0);
    expect(store.ids()).toBe(ids);
    // The marker keeps the device object it showed.
    expect(store.get(first?.devID ?? '')).toBe(first);
  });

  it('tells only the marker whose device changed what it shows, and the list when devices come or go', () => {
    const devices = floor();
    const store = new MarkerStore(devices);
    const told: string[] = [];
    for (const { devID } of devices) store.subscribe(devID, () => told.push(devID));
    let listTold = 0;
    store.subscribeList(() => listTold++);
    const [first, second, third] = devices;
    const offline = update(
      devices,
      { devID: first?.devID ?? '', online: false },
      { devID: second?.devID ?? '', floorOrigin: { x: 0.5, y: 0.5 } },
    );
    store.sync(offline);
    expect(told).toEqual([first?.devID, second?.devID]);
    expect(store.get(first?.devID ?? '')?.online).toBe(false);
    expect(listTold).toBe(0);
    store.sync(offline.filter((device) => device.devID !== third?.devID));
    expect(listTold).toBe(1);
    expect(store.ids()).not.toContain(third?.devID);
  });

  it('tells the marker when its port or its data points change, not when its data points are only copied', () => {
    const devices = floor();
    const store = new MarkerStore(devices);
    const told: string[] = [];
    for (const { devID } of devices) store.subscribe(devID, () => told.push(devID));
    const [first, second] = devices;
    if (!first || !second) throw new Error('no devices');
    const copied = devices.map((device) =>
      device === first ? { ...device, dataPoints: device.dataPoints.map((point) => ({ ...point })) } : device,
    );
    store.sync(copied);
    expect(told).toEqual([]);
    store.sync(
      copied.map((device) =>
        device.devID === first.devID
          ? { ...device, dataPoints: [...device.dataPoints, { dp: 'added', dn: 'Added' }] }
          : device.devID === second.devID
            ? { ...device, port: device.port === 1 ? 0 : 1 }
            : device,
      ),
    );
    expect(told).toEqual([first.devID, second.devID]);
    expect(markerDataPoints(store.get(first.devID) ?? first)).toMatch(/,added$/);
  });
});
