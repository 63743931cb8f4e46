import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { type LiveFloorMessage, topics } from '@argentum/contracts/messaging';
import { type DeviceView, type FloorDevicesAnswer, REALTIME_MAX_ORGS } from '@argentum/contracts';
import { floorPlanQueries, type GroupingOutcome } from '../features/floor-plan';
import { flushDeviceUpdates } from '../features/floor-plan/api/deviceUpdates';
import { connectionScope, type RealtimeStatus } from '../shared/realtime/channel';
import { parseRealtimeMessage } from '../shared/realtime/realtimeEvents';
import { applyRealtimeEvent, readAgainOnConnect, watchedOrgIds, watchedOrgTopics } from './realtimeFeeds';

const orgs = Array.from({ length: 200 }, (_, i) => `org-${String(i).padStart(3, '0')}`);

describe('what a page watches in real time (one connection: at most 16 organizations)', () => {
  it("watches the open floor's organization first, then the others, at most 16", () => {
    expect(watchedOrgIds(orgs, 'org-150')).toEqual(['org-150', ...orgs.slice(0, REALTIME_MAX_ORGS - 1)]);
    expect(watchedOrgIds(orgs, undefined)).toEqual(orgs.slice(0, REALTIME_MAX_ORGS));
    // A floor of an organization the user is not in adds nothing.
    expect(watchedOrgIds(['org-a', 'org-b'], 'org-x')).toEqual(['org-a', 'org-b']);
  });

  it("subscribes to the user's own command outcomes and the notifications of each watched organization, never devices' words", () => {
    expect(watchedOrgTopics(['org-a', 'org-b'], 'org-b', 'u1')).toEqual([
      topics.commandStatus('org-b', 'u1'),
      topics.notification('org-b'),
      topics.commandStatus('org-a', 'u1'),
      topics.notification('org-a'),
    ]);
    const watched = watchedOrgTopics(orgs, 'org-150', 'u1');
    expect(watched).toHaveLength(2 * REALTIME_MAX_ORGS);
    // A device's confirmations (up to 100 a second from a misbehaving one) would use up the page's quota.
    expect(watched).not.toContain(topics.controlFail('org-150'));
    expect(watched.filter((topic) => topic.includes('/controldata/'))).toEqual([]);
  });

  it('asks for a token naming the organizations of the wanted topics, in order, at most 16', () => {
    const wanted = [
      topics.floorLive('org-150', 'floor-1'),
      ...watchedOrgTopics(orgs, 'org-150', 'u1'),
      topics.notification('org-199'),
    ];
    expect(connectionScope(wanted)).toEqual(watchedOrgIds(orgs, 'org-150'));
    expect(connectionScope(['+/live/x', 'malformed'])).toEqual([]);
  });
});

describe('once connected, what the live topics keep current is read again', () => {
  const floor = (part: string) => [...floorPlanQueries.floor('floor-1'), part];
  const keys = {
    devices: floorPlanQueries.devicesKey('floor-1'),
    counts: floorPlanQueries.countsKey('floor-1'),
    plan: floor('plan'),
    notifications: ['notifications', 'unreadCount'],
  };

  it('devices, counts and notifications, not the plan; on the first connection too', () => {
    const queryClient = new QueryClient();
    for (const key of Object.values(keys)) queryClient.setQueryData(key, { held: true });
    const listeners = new Set<() => void>();
    const channel = {
      status: 'off' as RealtimeStatus,
      onStatus: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
    };
    const become = (status: RealtimeStatus) => {
      channel.status = status;
      listeners.forEach((listener) => listener());
    };
    const invalidated = () =>
      Object.entries(keys)
        .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
        .map(([name]) => name);

    const stop = readAgainOnConnect(queryClient, channel);
    const readAgain = () => {
      const names = invalidated();
      for (const key of Object.values(keys)) queryClient.setQueryData(key, { held: true });
      return names;
    };
    become('connecting');
    expect(readAgain()).toEqual([]);
    // The page read its floor and notifications before its first connection was up.
    become('connected');
    expect(readAgain()).toEqual(['devices', 'counts', 'notifications']);
    become('reconnecting');
    expect(readAgain()).toEqual([]);
    become('connected');
    expect(readAgain()).toEqual(['devices', 'counts', 'notifications']);
    stop();
    expect(listeners.size).toBe(0);
  });
});

describe("a floor's live message with its devices' grouping failures", () => {
  const light = (devID: string): DeviceView => ({
    devID,
    devName: devID,
    devType: 1,
    orgID: 'org-a',
    onFloor: true,
    dataPoints: [],
    properties: {},
    latest: { brightness: 0 },
    online: true,
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
  });
  /** A page with floor-1's devices read, and the announcements it makes. */
  function page() {
    const queryClient = new QueryClient();
    queryClient.setQueryData<FloorDevicesAnswer>(floorPlanQueries.devicesKey('floor-1'), {
      devices: [light('L1'), light('L2')],
      sensorSizes: {},
    });
    const announced: GroupingOutcome[] = [];
    /** The message as the channel hands it on: parsed from its topic, then applied. */
    const receive = (message: LiveFloorMessage) => {
      const event = parseRealtimeMessage('org-a/live/floor-1', JSON.stringify(message));
      if (!event) throw new Error('dropped');
      applyRealtimeEvent(queryClient, event, (outcome) => announced.push(outcome));
    };
    const floorReadAgain = () =>
      queryClient.getQueryState(floorPlanQueries.devicesKey('floor-1'))?.isInvalidated === true;
    return { queryClient, announced, receive, floorReadAgain };
  }
  const failure = (devID: string, kind: 'grouping' | 'ungrouping') => ({
    floorId: 'floor-1',
    updates: [],
    groupingFailures: [{ devID, kind }],
  });

  it('announces it once, as edit mode does, and reads the floor again', () => {
    const { announced, receive, floorReadAgain } = page();
    receive(failure('L1', 'grouping'));
    expect(announced).toEqual([{ kind: 'grouping', ok: false }]);
    expect(floorReadAgain()).toBe(true);
  });

  it('once per message: each message again, a message of several devices once per kind, values alone never', () => {
    const { queryClient, announced, receive, floorReadAgain } = page();
    receive({ floorId: 'floor-1', updates: [{ devID: 'L1', latest: { brightness: 40 }, lastSeen: 5 }] });
    expect(announced).toEqual([]);
    expect(floorReadAgain()).toBe(false);
    receive(failure('L1', 'ungrouping'));
    receive(failure('L1', 'ungrouping'));
    expect(announced).toEqual([
      { kind: 'ungrouping', ok: false },
      { kind: 'ungrouping', ok: false },
    ]);
    announced.length = 0;
    receive({
      floorId: 'floor-1',
      updates: [{ devID: 'L2', latest: { brightness: 70 }, lastSeen: 6 }],
      groupingFailures: [
        { devID: 'L1', kind: 'grouping' },
        { devID: 'L2', kind: 'grouping' },
      ],
    });
    expect(announced).toEqual([{ kind: 'grouping', ok: false }]);
    // Its values are merged as any others (coalesced).
    flushDeviceUpdates(queryClient, 'floor-1');
    const devices = queryClient.getQueryData<FloorDevicesAnswer>(
      floorPlanQueries.devicesKey('floor-1'),
    )?.devices;
    expect(devices?.map((d) => d.latest)).toEqual([{ brightness: 40 }, { brightness: 70 }]);
  });
});
