import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { topics } from '@argentum/contracts/messaging';
import { REALTIME_MAX_ORGS } from '@argentum/contracts';
import { floorPlanQueries } from '../features/floor-plan';
import { connectionScope, type RealtimeStatus } from '../shared/realtime/channel';
import { readAgainOnConnect, watchedOrgIds } from './realtimeFeeds';

const orgs = Array.from({ length: 200 }, (_, i) => `org-${String(i).padStart(3, '0')}`);

describe('what a page watches in real time (one connection: at most 16 organizations)', () => {
  it("watches the open floor's organization first, then the others, at most 16", () => {
    expect(watchedOrgIds(orgs, 'org-150')).toEqual(['org-150', ...orgs.slice(0, REALTIME_MAX_ORGS - 1)]);
    expect(watchedOrgIds(orgs, undefined)).toEqual(orgs.slice(0, REALTIME_MAX_ORGS));
    // A floor of an organization the user is not in adds nothing.
    expect(watchedOrgIds(['org-a', 'org-b'], 'org-x')).toEqual(['org-a', 'org-b']);
  });

  it('asks for a token naming the organizations of the wanted topics, in order, at most 16', () => {
    const wanted = [
      topics.floorLive('org-150', 'floor-1'),
      ...watchedOrgIds(orgs, 'org-150').flatMap((orgId) => [
        topics.commandStatus(orgId),
        topics.notification(orgId),
      ]),
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
