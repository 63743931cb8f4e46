import { DEFAULT_ALARM_SETTINGS } from '@argentum/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { Device } from '../../../src/domain/devices/device';
import { COMFORT_ALARM_AFTER_MS } from '../../../src/domain/notifications/alarms';
import type { LiveFloorMessage } from '@argentum/contracts/messaging';
import type { DeadLetter, QueuedReading } from '../../../src/domain/telemetry/ingest';
import { takeTelemetry, type TelemetryIntakePorts } from '../../../src/domain/telemetry/intake';
import type { UserRecord } from '../../../src/domain/users/user';
import {
  memoryAlarmStore,
  memoryDevices,
  memoryNotificationStore,
  memoryPresenceStore,
  memoryTelemetryStore,
  recordingLogger,
  recordingMetrics,
  testClock,
} from '../../support/fakes/memory-stores';

const MINUTE = 60_000;
const ieq = (devID: string, orgID = 'org-a'): Device => ({
  devID,
  orgID,
  devName: `IEQ ${devID}`,
  devType: 5,
  onFloor: true,
  floorID: 'floor-1',
  buildID: 'b-1',
  dataPoints: [{ dp: 'temp' }],
  properties: {},
  updatedAt: '2026-11-01T00:00:00.000Z',
});
const member: UserRecord = {
  userId: 'u1',
  email: 'ada@example.com',
  userName: 'Ada',
  orgRoles: { 'org-a': 1 },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
};

/** Taking telemetry on in-memory fakes: the stores, the live floor and notification channels. */
function scene(devices: Device[]) {
  const clock = testClock();
  const registered = memoryDevices(devices);
  const liveMessages: { orgId: string; floorId: string; message: LiveFloorMessage }[] = [];
  const notificationPushes: unknown[] = [];
  const letters: DeadLetter[] = [];
  const logger = recordingLogger();
  const metrics = recordingMetrics();
  const notifications = memoryNotificationStore();
  const alarms = {
    notifications,
    publisher: { publish: async (_orgId: string, push: unknown) => void notificationPushes.push(push) },
    users: {
      memberIds: async (orgId: string) => (orgId === 'org-a' ? [member.userId] : []),
      getMany: async (ids: readonly string[]) => (ids.includes(member.userId) ? [member] : []),
    },
    alarms: memoryAlarmStore(),
    alarmMail: { send: async () => undefined },
    logger,
    metrics: recordingMetrics(),
  };
  const presence = memoryPresenceStore(registered.byId);
  const telemetry = memoryTelemetryStore();
  const ports: TelemetryIntakePorts = {
    telemetry,
    devices: registered,
    deadLetters: { send: async (sent) => void letters.push(...sent) },
    alarms,
    presence: {
      presence,
      alarmSettings: async () => DEFAULT_ALARM_SETTINGS,
      push: async () => undefined,
      episodes: { raiseOffline: async () => 'n', close: async () => undefined },
      logger,
    },
    liveFloors: {
      publisher: {
        publish: async (orgId, floorId, message) => void liveMessages.push({ orgId, floorId, message }),
      },
    },
    logger,
    metrics,
    clock,
  };
  let n = 0;
  const reading = (devID: string, values: Record<string, number>, orgId = 'org-a'): QueuedReading => {
    const now = clock.now().getTime();
    return {
      id: `m${n++}`,
      body: JSON.stringify({
        devID,
        devType: 5,
        values,
        time: now,
        orgId,
        topicDevId: devID,
        receivedAt: now,
      }),
      receives: 1,
      sentAt: now,
    };
  };
  return {
    ports,
    telemetry,
    clock,
    registered,
    presence,
    notifications,
    liveMessages,
    letters,
    metrics,
    reading,
  };
}

describe('taking telemetry (use case on fakes)', () => {
  it('stores a batch, records latest values, publishes one live message per floor and moves devices online', async () => {
    const s = scene([ieq('T1'), ieq('T2')]);
    const now = s.clock.now().getTime();
    const retry = await takeTelemetry(s.ports, [
      s.reading('T1', { temp: 23 }),
      s.reading('T2', { temp: 24 }),
    ]);
    expect(retry).toEqual([]);
    expect((await s.telemetry.readRaw('T1', now, now, 10)).items).toEqual([
      { devId: 'T1', time: now, values: { temp: 23 } },
    ]);
    expect(s.registered.byId.get('T2')).toMatchObject({ latest: { temp: 24 }, lastSeen: now });
    expect(s.liveMessages).toHaveLength(1);
    expect(s.liveMessages[0]).toMatchObject({ orgId: 'org-a', floorId: 'floor-1' });
    expect(s.liveMessages[0]?.message.updates.map((u) => u.devID).sort()).toEqual(['T1', 'T2']);
    expect((await s.presence.get('T1'))?.presence).toMatchObject({ online: true, reason: 'reading' });
    expect(s.metrics.counts.get('Stored')).toBe(2);
  });

  it("asks again for a device not registered in the topic's organization, storing and publishing nothing", async () => {
    // Ids of their own: ingest caches owners for a minute, across batches.
    const s = scene([ieq('T5', 'org-b')]);
    const batch = [s.reading('T5', { temp: 23 }, 'org-a'), s.reading('T9', { temp: 23 })];
    const retry = await takeTelemetry(s.ports, batch);
    expect(retry.sort()).toEqual(batch.map((r) => r.id).sort());
    const now = s.clock.now().getTime();
    expect((await s.telemetry.readRaw('T5', now, now, 10)).items).toEqual([]);
    expect(s.liveMessages).toEqual([]);
    expect(s.metrics.counts.get('UnknownDevice')).toBe(2);
  });

  it('raises a comfort alarm once a reading stayed out of the zone long enough, and clears it when back', async () => {
    const s = scene([ieq('T3')]);
    const inbox = async () =>
      (await s.notifications.page('u1', { orgIds: ['org-a'], skip: 0, limit: 10, unreadOnly: false }))
        .entries;
    await takeTelemetry(s.ports, [s.reading('T3', { temp: 30 })]);
    expect(await inbox()).toEqual([]);
    s.clock.advance(COMFORT_ALARM_AFTER_MS);
    await takeTelemetry(s.ports, [s.reading('T3', { temp: 31 })]);
    const [raised] = await inbox();
    expect(raised?.notification.message).toContain('is not in comfort zone (22-26 °C)');
    expect(raised?.notification.clearedAt).toBeUndefined();
    s.clock.advance(MINUTE);
    await takeTelemetry(s.ports, [s.reading('T3', { temp: 24 })]);
    expect(await inbox()).toHaveLength(1);
    expect((await s.notifications.get(raised?.notification.id ?? ''))?.clearedAt).toBe(
      s.clock.now().toISOString(),
    );
  });

  it('raises a comfort warning 10 minutes after the last reading in the zone, whichever instance took it', async () => {
    // Two Lambda instances, each with its module's own memory of devices it found with no open
    // condition, take the same device's readings and share the stores.
    const instance = async () => {
      vi.resetModules();
      return (await import('../../../src/domain/telemetry/intake')).takeTelemetry;
    };
    const [a, b] = [await instance(), await instance()];
    const s = scene([ieq('T7')]);
    const start = s.clock.now().getTime();
    const inbox = async () =>
      (await s.notifications.page('u1', { orgIds: ['org-a'], skip: 0, limit: 10, unreadOnly: false }))
        .entries;
    /** A reading a minute, taken by `take`. */
    const minute = async (take: typeof takeTelemetry, temp: number) => {
      expect(await take(s.ports, [s.reading('T7', { temp })])).toEqual([]);
      s.clock.advance(MINUTE);
    };
    // 09:00: A finds the room in its zone, and no open condition.
    await minute(a, 24);
    // 09:01-09:03: out of its zone, taken by B: an episode opens at 09:01.
    for (let i = 1; i <= 3; i++) await minute(b, 30);
    // 09:04: back in its zone, taken by A, which found no open condition 4 minutes ago: the episode ends.
    await minute(a, 24);
    // From 09:05 out of its zone again: a new episode, raised at 09:15 (not at 09:11, 10 minutes
    // after the episode A's reading ended).
    for (let i = 5; i < 15; i++) {
      await minute(b, 30);
      expect(await inbox(), `09:${String(i).padStart(2, '0')}`).toEqual([]);
    }
    await minute(b, 30);
    const [raised] = await inbox();
    expect(raised?.notification.createdAt).toBe(new Date(start + 15 * MINUTE).toISOString());
  });

  it('puts live only the readings that became a device latest: an older one arriving late is not', async () => {
    const s = scene([ieq('T1')]);
    const early = s.reading('T1', { temp: 20 });
    s.clock.advance(MINUTE);
    await takeTelemetry(s.ports, [s.reading('T1', { temp: 25 })]);
    expect(s.liveMessages.flatMap((m) => m.message.updates)).toEqual([
      expect.objectContaining({ devID: 'T1', latest: { temp: 25 } }),
    ]);
    // The device's buffered reading of a minute before arrives now.
    await takeTelemetry(s.ports, [early]);
    expect(s.liveMessages).toHaveLength(1);
    expect(s.registered.byId.get('T1')?.latest).toEqual({ temp: 25 });
  });

  it("keeps every point of a batch's readings that name some points each (a room unit's fan, then its valve)", async () => {
    const s = scene([{ ...ieq('R1'), dataPoints: [{ dp: 'temp' }, { dp: 'fan' }, { dp: 'valve' }] }]);
    await takeTelemetry(s.ports, [s.reading('R1', { temp: 21, fan: 2, valve: 1 })]);
    s.clock.advance(MINUTE);
    const fan = s.reading('R1', { fan: 7 });
    s.clock.advance(1000);
    const valve = s.reading('R1', { valve: 4.5 });
    s.clock.advance(1000);
    // One batch, its records in any order: each point takes its newest value, at the newest time.
    await takeTelemetry(s.ports, [valve, fan, s.reading('R1', { fan: 8 })].reverse());
    expect(s.registered.byId.get('R1')).toMatchObject({
      latest: { temp: 21, fan: 8, valve: 4.5 },
      lastSeen: s.clock.now().getTime(),
    });
    expect(s.liveMessages.at(-1)?.message.updates).toEqual([
      expect.objectContaining({ devID: 'R1', latest: { fan: 8, valve: 4.5 } }),
    ]);
  });

  it("takes a point's reading arriving after a newer one of another point, and puts it live at the device's time", async () => {
    const s = scene([{ ...ieq('R1'), dataPoints: [{ dp: 'fan' }, { dp: 'valve' }] }]);
    await takeTelemetry(s.ports, [s.reading('R1', { fan: 2, valve: 1 })]);
    s.clock.advance(MINUTE);
    const fan = s.reading('R1', { fan: 7 });
    s.clock.advance(1000);
    // The valve's confirmed value comes in one batch, the fan's (a second older) in the next.
    await takeTelemetry(s.ports, [s.reading('R1', { valve: 4.5 })]);
    const valveAt = s.clock.now().getTime();
    await takeTelemetry(s.ports, [fan]);
    expect(s.registered.byId.get('R1')).toMatchObject({ latest: { fan: 7, valve: 4.5 }, lastSeen: valveAt });
    expect(s.liveMessages.at(-1)?.message.updates).toEqual([
      expect.objectContaining({ devID: 'R1', latest: { fan: 7 }, lastSeen: valveAt }),
    ]);
    // Older on every point it names: nothing changes, nothing goes live.
    const pushes = s.liveMessages.length;
    s.clock.advance(-2 * MINUTE);
    await takeTelemetry(s.ports, [s.reading('R1', { fan: 1, valve: 1 })]);
    expect(s.liveMessages).toHaveLength(pushes);
    expect(s.registered.byId.get('R1')?.latest).toEqual({ fan: 7, valve: 4.5 });
  });

  it("puts a reading live on the device's floor as the reading's write found it, moved a moment before", async () => {
    const s = scene([ieq('T1')]);
    await takeTelemetry(s.ports, [s.reading('T1', { temp: 21 })]);
    const device = s.registered.byId.get('T1');
    if (!device) throw new Error('no device');
    s.registered.byId.set('T1', { ...device, floorID: 'floor-2' });
    s.clock.advance(1_000);
    await takeTelemetry(s.ports, [s.reading('T1', { temp: 22 })]);
    expect(s.liveMessages.map((m) => m.floorId)).toEqual(['floor-1', 'floor-2']);
  });
});
