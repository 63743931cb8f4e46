import { QueryClient } from '@tanstack/react-query';
import type { DeviceView, FloorDevicesAnswer } from '@argentum/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { establishSession } from '../../../shared/session/sessionStore';
import { getToasts } from '../../../shared/ui/toastStore';
import { mergeDevices } from './deviceMerge';
import {
  applyDeviceUpdates,
  applyLiveUpdates,
  flushDeviceUpdates,
  movesCounts,
  type PortReportView,
  portReportKey,
} from './deviceUpdates';
import { floorPlanQueries } from './floorPlanQueries';

const device = (devID: string, latest: Record<string, number> = {}): DeviceView => ({
  devID,
  devName: devID,
  devType: 5,
  orgID: 'org',
  onFloor: true,
  dataPoints: [],
  properties: {},
  latest,
  online: true,
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
});

describe('mergeDevices', () => {
  it('replaces only the changed devices and merges their latest values', () => {
    const devices = [device('a', { temp: 20, hum: 40 }), device('b'), device('c')];
    const next = mergeDevices(devices, new Map([['a', { devID: 'a', latest: { temp: 21 }, lastSeen: 5 }]]));
    expect(next).not.toBe(devices);
    expect(next[0]).toMatchObject({ latest: { temp: 21, hum: 40 }, lastSeen: 5 });
    expect(next[1]).toBe(devices[1]);
    expect(next[2]).toBe(devices[2]);
  });

  it('keeps the list when no update concerns it', () => {
    const devices = [device('a')];
    expect(mergeDevices(devices, new Map([['zz', { devID: 'zz', online: false }]]))).toBe(devices);
  });
});

describe('movesCounts: what makes the Floor details read their counts again', () => {
  const motion = (devID: string, mState: number) => ({ ...device(devID, { mState }), devType: 4 });
  const devices = [motion('m1', 0), device('ieq', { temp: 20 })];
  const updates = (...list: { devID: string; latest?: Record<string, number>; online?: boolean }[]) =>
    new Map(list.map((u) => [u.devID, u]));

  it('a motion sensor turning occupied or free, and a presence change', () => {
    expect(movesCounts(devices, updates({ devID: 'm1', latest: { mState: 1 } }))).toBe(true);
    expect(
      movesCounts(
        devices,
        new Map([
          [
            'ieq',
            {
              devID: 'ieq',
              online: false,
              presence: { online: false, reason: 'silent' as const, since: 1, at: 1 },
            },
          ],
        ]),
      ),
    ).toBe(true);
  });

  it('not a reading that leaves occupancy as it was, nor any other value', () => {
    expect(movesCounts(devices, updates({ devID: 'm1', latest: { mState: 0 } }))).toBe(false);
    expect(movesCounts(devices, updates({ devID: 'ieq', latest: { temp: 21 } }))).toBe(false);
  });
});

describe('applyDeviceUpdates', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('coalesces many updates into one cache write per interval', () => {
    const queryClient = new QueryClient();
    const key = floorPlanQueries.devicesKey('floor-1');
    queryClient.setQueryData<FloorDevicesAnswer>(key, {
      devices: [device('a'), device('b')],
      sensorSizes: {},
    });
    let writes = 0;
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success') writes++;
    });
    for (let i = 0; i < 100; i++) {
      applyDeviceUpdates(queryClient, 'floor-1', [
        { devID: 'a', latest: { temp: i } },
        { devID: 'b', latest: { co2: 400 + i }, online: i % 2 === 0 },
      ]);
    }
    expect(writes).toBe(0);
    vi.runAllTimers();
    expect(writes).toBe(1);
    const answer = queryClient.getQueryData<FloorDevicesAnswer>(key);
    expect(answer?.devices[0]?.latest).toEqual({ temp: 99 });
    expect(answer?.devices[1]).toMatchObject({ latest: { co2: 499 }, online: false });

    // The next batch waits for the interval after the last write.
    applyDeviceUpdates(queryClient, 'floor-1', [{ devID: 'a', latest: { hum: 50 } }]);
    vi.advanceTimersByTime(100);
    expect(writes).toBe(1);
    vi.advanceTimersByTime(200);
    expect(writes).toBe(2);
    expect(queryClient.getQueryData<FloorDevicesAnswer>(key)?.devices[0]?.latest).toEqual({
      temp: 99,
      hum: 50,
    });
    unsubscribe();
  });

  it('drops updates for a floor that is not loaded', () => {
    const queryClient = new QueryClient();
    applyDeviceUpdates(queryClient, 'floor-x', [{ devID: 'a', online: true }]);
    flushDeviceUpdates(queryClient, 'floor-x');
    expect(queryClient.getQueryData(floorPlanQueries.devicesKey('floor-x'))).toBeUndefined();
    vi.runAllTimers();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the updates that arrive while the floor's first answer is read, and writes them on it", async () => {
    const queryClient = new QueryClient();
    const key = floorPlanQueries.devicesKey('floor-1');
    let answer!: (value: FloorDevicesAnswer) => void;
    const first = queryClient.fetchQuery({
      queryKey: key,
      queryFn: () => new Promise<FloorDevicesAnswer>((resolve) => (answer = resolve)),
    });
    applyDeviceUpdates(queryClient, 'floor-1', [{ devID: 'a', latest: { temp: 25 }, lastSeen: 3_000 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    // Read before that reading: the answer is older than it.
    answer({ devices: [{ ...device('a', { temp: 20 }), lastSeen: 1_000 }], sensorSizes: {} });
    await first;
    await vi.advanceTimersByTimeAsync(300);
    expect(queryClient.getQueryData<FloorDevicesAnswer>(key)?.devices[0]).toMatchObject({
      latest: { temp: 25 },
      lastSeen: 3_000,
    });
  });
});

describe("the floor's devices read again while live values arrive", () => {
  const floor = { floorId: 'floor-1', orgId: 'org', buildId: 'b' };
  const at = (online: boolean, time: number) => ({
    online,
    reason: online ? ('reading' as const) : ('silent' as const),
    since: time,
    at: time,
  });
  beforeEach(() => {
    establishSession({
      accessToken: 'token',
      user: {
        id: 'u',
        userName: 'U',
        email: 'u@example.com',
        roles: 0,
        org: ['org'],
        orgID: ['org'],
        orgRoles: { org: 0 },
        theme: 'light',
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('an answer read before a live word does not undo it when it lands after it', async () => {
    const queryClient = new QueryClient();
    const key = floorPlanQueries.devicesKey('floor-1');
    const before = { ...device('a', { temp: 20 }), lastSeen: 1_000, presence: at(true, 1_000) };
    queryClient.setQueryData<FloorDevicesAnswer>(key, { devices: [before], sensorSizes: {} });
    let respond!: (response: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (respond = resolve))),
    );
    const reading = queryClient.fetchQuery({ ...floorPlanQueries.devices(floor), staleTime: 0 });
    // Meanwhile the device goes silent (the presence sweep's word, live).
    applyDeviceUpdates(queryClient, 'floor-1', [{ devID: 'a', online: false, presence: at(false, 2_000) }]);
    flushDeviceUpdates(queryClient, 'floor-1');
    respond(
      new Response(JSON.stringify({ devices: [before], sensorSizes: {} }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await reading;
    expect(queryClient.getQueryData<FloorDevicesAnswer>(key)?.devices[0]).toMatchObject({
      online: false,
      presence: { at: 2_000 },
    });
  });
});

describe("applyLiveUpdates: a power node's port values (201/202/203)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('merges the ports into its properties, keeps its word for the panel and toasts it with its name', () => {
    const queryClient = new QueryClient();
    const key = floorPlanQueries.devicesKey('floor-1');
    const node = { ...device('node'), devName: 'LightsHall', devType: 1, properties: { volt: 3.3 } };
    queryClient.setQueryData<FloorDevicesAnswer>(key, { devices: [node], sensorSizes: {} });
    applyLiveUpdates(queryClient, 'floor-1', [
      {
        devID: 'node',
        ports: { portOneValue: 1 },
        portReport: { cmnd: 201, outcome: 'success', val: 1, at: 5 },
      },
    ]);
    expect(queryClient.getQueryData<PortReportView>(portReportKey('node'))?.text).toBe('Value changed to 1');
    expect(getToasts().map((t) => t.message)).toContain('LightsHall: Value changed to 1');
    vi.runAllTimers();
    const [merged] = queryClient.getQueryData<FloorDevicesAnswer>(key)?.devices ?? [];
    expect(merged?.properties).toEqual({ volt: 3.3, portOneValue: 1 });
    expect(merged).not.toHaveProperty('portReport');
    expect(merged).not.toHaveProperty('ports');

    applyLiveUpdates(queryClient, 'floor-1', [
      { devID: 'node', portReport: { cmnd: 202, outcome: 'fail', at: 6 } },
    ]);
    expect(queryClient.getQueryData<PortReportView>(portReportKey('node'))?.text).toBe('Value change failed');
    expect(getToasts().map((t) => t.message)).toContain('LightsHall: Value change failed');
  });
});

describe("applyLiveUpdates: a power node's reports delivered out of order", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A floor with one power node named `name` (toasts are global: a name of its own per test). */
  const floorWithNode = (name: string) => {
    const queryClient = new QueryClient();
    const key = floorPlanQueries.devicesKey('floor-1');
    const node = { ...device('node'), devName: name, devType: 1, properties: { volt: 3.3 } };
    queryClient.setQueryData<FloorDevicesAnswer>(key, { devices: [node], sensorSizes: {} });
    return {
      push: (...updates: Parameters<typeof applyLiveUpdates>[2]) =>
        applyLiveUpdates(queryClient, 'floor-1', updates),
      properties: () => {
        vi.runAllTimers();
        return queryClient.getQueryData<FloorDevicesAnswer>(key)?.devices[0]?.properties;
      },
      word: () => queryClient.getQueryData<PortReportView>(portReportKey('node')),
      /** The toasts shown of this node. */
      toasted: () => getToasts().flatMap((t) => (t.message.startsWith(`${name}: `) ? [t.message] : [])),
    };
  };

  it('keeps the newest report of a port: an older one arriving later changes neither its value nor its word', () => {
    const floor = floorWithNode('Hall');
    floor.push({
      devID: 'node',
      ports: { portOneValue: 0 },
      portReport: { cmnd: 201, outcome: 'success', val: 0, at: 2_000 },
    });
    // In the same coalescing interval, the older report (a reconnect's replay, another publisher).
    floor.push({
      devID: 'node',
      ports: { portOneValue: 1 },
      portReport: { cmnd: 201, outcome: 'success', val: 1, at: 1_000 },
    });
    expect(floor.toasted()).toContain('Hall: Value changed to 0');
    expect(floor.toasted()).not.toContain('Hall: Value changed to 1');
    expect(floor.word()).toMatchObject({ text: 'Value changed to 0', report: { at: 2_000 } });
    expect(floor.properties()).toEqual({ volt: 3.3, portOneValue: 0 });

    // After the value was written into the floor's devices, as well.
    floor.push({
      devID: 'node',
      ports: { portOneValue: 1 },
      portReport: { cmnd: 201, outcome: 'success', val: 1, at: 1_500 },
    });
    floor.push({ devID: 'node', portReport: { cmnd: 201, outcome: 'fail', at: 1_800 } });
    expect(floor.toasted()).toEqual([]);
    expect(floor.word()).toMatchObject({ text: 'Value changed to 0', report: { at: 2_000 } });
    expect(floor.properties()).toEqual({ volt: 3.3, portOneValue: 0 });
  });

  it('decides per port: a later-arriving report is still news for a port no newer report has named', () => {
    const floor = floorWithNode('Lobby');
    floor.push({
      devID: 'node',
      ports: { portOneValue: 1 },
      portReport: { cmnd: 201, outcome: 'success', val: 1, at: 3_000 },
    });
    expect(floor.properties()).toEqual({ volt: 3.3, portOneValue: 1 });
    // Both ports, received before port one's report: port two takes it, port one keeps the newer one.
    floor.push({
      devID: 'node',
      ports: { portOneValue: 0, portTwoValue: 0 },
      portReport: { cmnd: 203, outcome: 'success', val: 0, at: 2_000 },
    });
    expect(floor.toasted()).toContain('Lobby: Value changed to 0');
    expect(floor.word()?.text).toBe('Value changed to 0');
    expect(floor.properties()).toEqual({ volt: 3.3, portOneValue: 1, portTwoValue: 0 });
  });

  it('shows and toasts the same report once, however often it is delivered', () => {
    const floor = floorWithNode('Stairs');
    const report = {
      devID: 'node',
      ports: { portTwoValue: 1 as const },
      portReport: { cmnd: 202 as const, outcome: 'success' as const, val: 1 as const, at: 4_000 },
    };
    floor.push(report);
    expect(floor.toasted()).toContain('Stairs: Value changed to 1');
    expect(floor.properties()).toEqual({ volt: 3.3, portTwoValue: 1 });
    // The toast is gone (runAllTimers); the same report again, later, is not announced again.
    expect(floor.toasted()).toEqual([]);
    const word = floor.word();
    floor.push(report);
    expect(floor.toasted()).toEqual([]);
    expect(floor.word()).toBe(word);
    expect(floor.properties()).toEqual({ volt: 3.3, portTwoValue: 1 });
  });

  it("takes an older success's value when only a failure is newer, without announcing it", () => {
    const floor = floorWithNode('Porch');
    floor.push({ devID: 'node', portReport: { cmnd: 201, outcome: 'fail', at: 6_000 } });
    expect(floor.toasted()).toContain('Porch: Value change failed');
    floor.push({
      devID: 'node',
      ports: { portOneValue: 1 },
      portReport: { cmnd: 201, outcome: 'success', val: 1, at: 5_000 },
    });
    // A failure changes no value: the port's value is still the one set at 5,000.
    expect(floor.toasted()).not.toContain('Porch: Value changed to 1');
    expect(floor.word()?.text).toBe('Value change failed');
    expect(floor.properties()).toEqual({ volt: 3.3, portOneValue: 1 });
  });
});
