import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_DATA_POINTS } from '@argentum/contracts/messaging';
import type { Device } from '../../src/domain/devices/device';
import type { DeviceStore } from '../../src/domain/devices/ports';
import type { PresenceStore, StoredPresence } from '../../src/domain/devices/presence';
import type { AlarmStore, DeviceAlarms } from '../../src/domain/notifications/alarms';
import type { TelemetryIntakePorts } from '../../src/domain/telemetry/intake';
import type { NotificationStore, StoredNotification } from '../../src/domain/notifications/ports';
import type { TreeStore } from '../../src/domain/tree/ports';
import type { TreeNode } from '../../src/domain/tree/tree';
import type { UserStore } from '../../src/domain/users/ports';
import type { UserRecord } from '../../src/domain/users/user';

/**
 * What the alarm, notification and presence stores must do, run against the DynamoDB adapters
 * (DynamoDB Local, platform project) and the in-memory fakes (unit project): the fakes the use-case
 * tests use behave as the stores do.
 */
const id = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export function alarmStoreContract(name: string, store: () => AlarmStore) {
  describe(`AlarmStore contract: ${name}`, () => {
    const state = (devId: string, version: number): DeviceAlarms => ({
      devId,
      conditions: { temp: { since: 1000 + version } },
      observedAt: 2000 + version,
      version,
    });

    it('writes a first state only when none is stored, then only over the version read', async () => {
      const devId = id('alarm');
      expect(await store().get(devId)).toBeUndefined();
      expect(await store().saveIfUnchanged(state(devId, 1), undefined)).toBe('saved');
      expect(await store().saveIfUnchanged(state(devId, 1), undefined)).toBe('changed-meanwhile');
      expect(await store().get(devId)).toEqual(state(devId, 1));
      expect(await store().saveIfUnchanged(state(devId, 2), state(devId, 1))).toBe('saved');
      expect(await store().saveIfUnchanged(state(devId, 3), state(devId, 1))).toBe('changed-meanwhile');
      expect(await store().get(devId)).toEqual(state(devId, 2));
    });

    it('reads the states of many devices at once, leaving out those with none', async () => {
      const devIds = Array.from({ length: 130 }, () => id('alarm'));
      for (const [i, devId] of devIds.entries())
        if (i % 3 !== 0) expect(await store().saveIfUnchanged(state(devId, i + 1), undefined)).toBe('saved');
      const none = id('alarm');
      const found = await store().getMany([...devIds, none, devIds[1] as string]);
      expect(found.size).toBe(86);
      for (const [i, devId] of devIds.entries())
        expect(found.get(devId)).toEqual(i % 3 === 0 ? undefined : state(devId, i + 1));
      expect(found.has(none)).toBe(false);
      // As fresh as `get`: a write just made is read.
      const [first] = devIds;
      expect(await store().saveIfUnchanged(state(first as string, 1), undefined)).toBe('saved');
      expect((await store().getMany([first as string])).get(first as string)).toEqual(
        state(first as string, 1),
      );
    });

    it('keeps the times of repeating events and the resolutions not yet delivered with the state, until a write leaves them out', async () => {
      const devId = id('alarm');
      const withEvents = {
        ...state(devId, 1),
        events: { pairing: 1_700_000_000_000 },
        clearing: { 'n-1': 1_700_000_060_000 },
      };
      expect(await store().saveIfUnchanged(withEvents, undefined)).toBe('saved');
      expect(await store().get(devId)).toEqual(withEvents);
      expect((await store().getMany([devId])).get(devId)).toEqual(withEvents);
      const { clearing: _delivered, ...delivered } = { ...withEvents, version: 2 };
      expect(await store().saveIfUnchanged(delivered, withEvents)).toBe('saved');
      expect(await store().get(devId)).toEqual(delivered);
    });
  });
}

export function notificationStoreContract(name: string, store: () => NotificationStore) {
  describe(`NotificationStore contract: ${name}`, () => {
    const notification = (orgId: string, n: number): StoredNotification => ({
      id: `${String(1_700_000_000_000 + n).padStart(13, '0')}-${id('n')}`,
      orgId,
      type: 1,
      message: `<b>Alarm</b> ${n}`,
      createdAt: new Date(1_700_000_000_000 + n).toISOString(),
      properties: { devID: 'D1' },
    });

    it('stores a notification once and puts it into each inbox once, unread, keeping read flags on redelivery', async () => {
      const [org, user] = [id('org'), id('user')];
      const first = notification(org, 1);
      expect(await store().deliver(first, [user, user])).toBe('new');
      expect(await store().unreadCount(user, [org])).toBe(1);
      await store().markRead(user, [first.id, 'not-in-inbox']);
      expect(await store().deliver(first, [user])).toBe('known');
      expect(await store().unreadCount(user, [org])).toBe(0);
      expect(await store().get(first.id)).toEqual(first);
    });

    it("pages a user's inbox newest first, only the organizations asked for, and hides removed entries", async () => {
      const [org, other, user] = [id('org'), id('org'), id('user')];
      const made = [notification(org, 1), notification(org, 2), notification(other, 3), notification(org, 4)];
      for (const n of made) await store().deliver(n, [user]);
      const page = await store().page(user, { orgIds: [org], skip: 0, limit: 2, unreadOnly: false });
      expect(page.entries.map((e) => e.notification.id)).toEqual([made[3]?.id, made[1]?.id]);
      expect(page.hasMore).toBe(true);
      expect(await store().remove(user, made[3]?.id ?? '')).toEqual(made[3]);
      expect(await store().remove(user, made[3]?.id ?? '')).toBeUndefined();
      const rest = await store().page(user, { orgIds: [org], skip: 0, limit: 10, unreadOnly: false });
      expect(rest).toEqual({
        entries: [
          { notification: made[1], read: false },
          { notification: made[0], read: false },
        ],
        hasMore: false,
      });
    });

    it("claims an episode's notification once: later raises of it, at other times and at once, get the first's id and time", async () => {
      const [org, episode] = [id('org'), id('episode')];
      const first = notification(org, 6);
      expect(await store().claimEpisode(episode, first)).toEqual(first);
      const later = { ...notification(org, 7), message: '<b>Alarm</b> again' };
      expect(await store().claimEpisode(episode, later)).toEqual({
        ...later,
        id: first.id,
        createdAt: first.createdAt,
      });
      const racing = Array.from({ length: 6 }, (_, i) => notification(org, 10 + i));
      const claimed = await Promise.all(racing.map((n) => store().claimEpisode(id('raced'), n)));
      expect(new Set(claimed.map((n) => n.id)).size).toBe(6);
      const one = id('episode');
      const held = await Promise.all(racing.map((n) => store().claimEpisode(one, n)));
      expect(new Set(held.map((n) => n.id)).size).toBe(1);
      expect(racing.map((n) => n.id)).toContain(held[0]?.id);
    });

    it('records when an alarm ended once; a second clearing changes nothing', async () => {
      const n = notification(id('org'), 5);
      await store().deliver(n, []);
      const cleared = { ...n, clearedAt: '2026-11-24T10:00:00.000Z' };
      // Each clearing answers the notification as stored: the first clearing's time stands.
      expect(await store().markCleared(n.id, '2026-11-24T10:00:00.000Z')).toEqual({
        notification: cleared,
        recorded: true,
      });
      expect(await store().markCleared(n.id, '2026-11-24T11:00:00.000Z')).toEqual({
        notification: cleared,
        recorded: false,
      });
      expect(await store().get(n.id)).toEqual(cleared);
      expect(await store().markCleared(id('unknown'), '2026-11-24T10:00:00.000Z')).toBeUndefined();
    });
  });
}

export function presenceStoreContract(
  name: string,
  store: () => PresenceStore,
  register: (device: Device) => Promise<void>,
) {
  describe(`PresenceStore contract: ${name}`, () => {
    const device = (lastSeen?: number): Device => ({
      devID: id('presence'),
      orgID: 'org-presence',
      devName: 'Desk',
      devType: 5,
      onFloor: false,
      dataPoints: [],
      properties: {},
      updatedAt: '2026-11-24T09:00:00.000Z',
      ...(lastSeen !== undefined ? { lastSeen } : {}),
    });
    const presence = (rev: number, online: boolean): StoredPresence => ({
      online,
      reason: online ? 'reading' : 'silent',
      since: 1000 * rev,
      at: 1000 * rev,
      rev,
    });

    it('saves over the revision and newest reading read, and refuses a stale read', async () => {
      const d = device(500);
      await register(d);
      expect((await store().get(d.devID))?.presence).toBeUndefined();
      expect(
        await store().saveIfUnchanged(d.devID, presence(1, true), { rev: undefined, lastSeen: 400 }),
      ).toBe('changed-meanwhile');
      expect(
        await store().saveIfUnchanged(d.devID, presence(1, true), { rev: undefined, lastSeen: 500 }),
      ).toBe('saved');
      expect(
        await store().saveIfUnchanged(d.devID, presence(2, false), { rev: undefined, lastSeen: 500 }),
      ).toBe('changed-meanwhile');
      expect(await store().saveIfUnchanged(d.devID, presence(2, false), { rev: 1, lastSeen: 500 })).toBe(
        'saved',
      );
      expect((await store().get(d.devID))?.presence).toEqual(presence(2, false));
      expect(
        await store().saveIfUnchanged(id('unknown'), presence(1, true), {
          rev: undefined,
          lastSeen: undefined,
        }),
      ).toBe('changed-meanwhile');
    });

    it('watches a device while it is online or has an episode, and no longer once unwatched', async () => {
      const [online, offline] = [device(), device()];
      await register(online);
      await register(offline);
      await store().saveIfUnchanged(online.devID, presence(1, true), { rev: undefined, lastSeen: undefined });
      await store().saveIfUnchanged(offline.devID, presence(1, false), {
        rev: undefined,
        lastSeen: undefined,
      });
      const watched = async () => (await store().watched()).map((d) => d.devID);
      expect(await watched()).toContain(online.devID);
      expect(await watched()).not.toContain(offline.devID);
      await store().unwatch(online.devID);
      expect(await watched()).not.toContain(online.devID);
    });
  });
}

/** The device store's listings, and ingest's latest-values write to a device. */
export type DeviceListingStore = Pick<DeviceStore, 'get' | 'register' | 'onFloor' | 'ofOrganization'> &
  Pick<TelemetryIntakePorts['devices'], 'recordLatest'>;

export function deviceListingContract(
  name: string,
  store: () => DeviceListingStore,
  edits: {
    /** Places a registered device on a floor, or takes it off (undefined), as the device calls do. */
    move(device: Device, floorId: string | undefined): Promise<void>;
    /** Removes a device's item (as an operator would). */
    remove(devId: string): Promise<void>;
  },
) {
  describe(`DeviceStore listings contract: ${name}`, () => {
    const device = (orgID: string, floorID?: string): Device => ({
      devID: id('listed'),
      orgID,
      devName: 'Desk',
      devType: 5,
      onFloor: floorID !== undefined,
      ...(floorID !== undefined ? { floorID, buildID: 'bld-listed', floorOrigin: { x: 0.5, y: 0.5 } } : {}),
      dataPoints: [{ dp: 'temp' }],
      properties: {},
      updatedAt: '2026-11-24T09:00:00.000Z',
    });
    const ids = (devices: Device[]) => devices.map((d) => d.devID);

    it("lists a floor's and an organization's devices, in id order, with the latest values readings wrote", async () => {
      const [org, floor] = [id('org'), id('floor')];
      const placed = [device(org, floor), device(org, floor)];
      const off = device(org);
      for (const d of [...placed, off]) expect(await store().register(d)).toEqual({ outcome: 'written' });
      for (const [i, d] of [...placed, off].entries())
        expect(await store().recordLatest(d.devID, 1000 + i, { temp: 20 + i })).toMatchObject({
          devID: d.devID,
          latest: { temp: 20 + i },
          lastSeen: 1000 + i,
        });
      // A reading of some data points (a command's confirmed value) leaves the others; an older one
      // changes nothing.
      const [first] = placed;
      if (!first) throw new Error('no device');
      expect(await store().recordLatest(first.devID, 5000, { temp: 19, hum: 40 })).toMatchObject({
        latest: { temp: 19, hum: 40 },
      });
      expect((await store().recordLatest(first.devID, 5001, { fan: 5 }))?.latest).toEqual({
        temp: 19,
        hum: 40,
        fan: 5,
      });
      expect(await store().recordLatest(first.devID, 4000, { fan: 1 })).toBeUndefined();
      expect((await store().get(first.devID))?.latest).toEqual({ temp: 19, hum: 40, fan: 5 });
      expect(await store().recordLatest(id('unknown'), 5000, { temp: 1 })).toBeUndefined();
      const onFloor = await store().onFloor(floor);
      expect(ids(onFloor)).toEqual(ids(placed).sort());
      expect(onFloor.find((d) => d.devID === placed[1]?.devID)).toMatchObject({
        latest: { temp: 21 },
        lastSeen: 1001,
        floorID: floor,
      });
      const ofOrg = await store().ofOrganization(org);
      expect(ids(ofOrg)).toEqual(ids([...placed, off]).sort());
      expect(ofOrg.find((d) => d.devID === off.devID)).toMatchObject({
        latest: { temp: 22 },
        onFloor: false,
      });
      expect(await store().onFloor(id('floor'))).toEqual([]);
    });

    it('lists a device moved while readings arrive on its new floor only, with the newest values', async () => {
      const [org, from, to] = [id('org'), id('floor'), id('floor')];
      const d = device(org, from);
      await store().register(d);
      await Promise.all([
        edits.move(d, to),
        ...Array.from({ length: 10 }, (_, i) => store().recordLatest(d.devID, 2000 + i, { temp: i })),
      ]);
      // A reading after the move answers the device on its new floor (ingest places it live there).
      expect(await store().recordLatest(d.devID, 3000, { temp: 30 })).toMatchObject({ floorID: to });
      expect(ids(await store().onFloor(from))).toEqual([]);
      expect(await store().onFloor(to)).toEqual([
        expect.objectContaining({ devID: d.devID, floorID: to, latest: { temp: 30 } }),
      ]);
      await Promise.all([
        edits.move(d, undefined),
        store().recordLatest(d.devID, 3001, { temp: 31 }),
        store().recordLatest(d.devID, 3002, { temp: 32 }),
      ]);
      expect(await store().onFloor(to)).toEqual([]);
      expect(await store().ofOrganization(org)).toEqual([
        expect.objectContaining({ devID: d.devID, onFloor: false, lastSeen: 3002, latest: { temp: 32 } }),
      ]);
    });

    it('stores every reading of a dozen that arrive at once, out of order, and ends at the newest', async () => {
      // Ingest's Lambda instances can each hold a batch with the same device: each write that loses
      // its compare-and-set is tried again, so none is dropped and none fails its batch.
      const d = device(id('org'));
      await store().register(d);
      const times = [7, 2, 11, 0, 5, 9, 1, 10, 3, 8, 4, 6].map((i) => 4000 + i);
      await Promise.all(times.map((t) => store().recordLatest(d.devID, t, { [`p${t % 3}`]: t })));
      expect(await store().get(d.devID)).toMatchObject({
        lastSeen: 4011,
        latest: { p0: 4011, p1: 4009, p2: 4010 },
      });
    });

    it("takes a reading older than the device's time for the points it is the newest word on, by each point's time", async () => {
      const d = device(id('org'));
      await store().register(d);
      await store().recordLatest(d.devID, 1000, { temp: 20, fan: 2, valve: 1 });
      // The valve's confirmed value (3000) came after the fan's (2000), whose reading arrives last.
      expect(await store().recordLatest(d.devID, 3000, { valve: 4.5 })).toMatchObject({
        latest: { temp: 20, fan: 2, valve: 4.5 },
        latestAt: { temp: 1000, fan: 1000, valve: 3000 },
        lastSeen: 3000,
      });
      expect(await store().recordLatest(d.devID, 2000, { fan: 7, valve: 3 })).toMatchObject({
        latest: { temp: 20, fan: 7, valve: 4.5 },
        latestAt: { temp: 1000, fan: 2000, valve: 3000 },
        lastSeen: 3000,
      });
      // A point never reported before takes any reading of it; one older on every point, nothing.
      expect(await store().recordLatest(d.devID, 500, { zone: 21 })).toMatchObject({
        latest: { zone: 21 },
        latestAt: { zone: 500 },
        lastSeen: 3000,
      });
      expect(await store().recordLatest(d.devID, 1500, { fan: 1, valve: 1, zone: 20 })).toMatchObject({
        latest: { fan: 7, valve: 4.5, zone: 20 },
        lastSeen: 3000,
      });
      expect(await store().recordLatest(d.devID, 1999, { fan: 1, valve: 1 })).toBeUndefined();
      expect(await store().get(d.devID)).toMatchObject({
        latest: { temp: 20, fan: 7, valve: 4.5, zone: 20 },
        latestAt: { temp: 1000, fan: 2000, valve: 3000, zone: 1500 },
        lastSeen: 3000,
      });
    });

    it("keeps the clock offset its own newest reading tells: the first write, a later one, not an older or the platform's", async () => {
      const d = device(id('org'));
      await store().register(d);
      // The first reading (no maps yet) and a later one set it; a reading without one leaves it.
      expect(await store().recordLatest(d.devID, 1000, { temp: 20 }, 120_000)).toMatchObject({
        clockOffset: 120_000,
      });
      expect(await store().recordLatest(d.devID, 2000, { temp: 21 }, 119_000)).toMatchObject({
        clockOffset: 119_000,
      });
      expect(await store().recordLatest(d.devID, 3000, { lock: 1 })).toMatchObject({ clockOffset: 119_000 });
      // An older reading still brings a point it is the newest word on, but not its clock.
      expect(await store().recordLatest(d.devID, 2500, { fan: 2 }, -5_000)).toMatchObject({
        latest: { fan: 2 },
        clockOffset: 119_000,
      });
      // One as new as the device's time is its newest.
      expect(await store().recordLatest(d.devID, 3000, { temp: 22 }, 118_000)).toMatchObject({
        clockOffset: 118_000,
      });
      expect((await store().get(d.devID))?.clockOffset).toBe(118_000);
    });

    it('takes a reading of as many data points as a device declares, newer or older than the device', async () => {
      const d = device(id('org'));
      await store().register(d);
      const reading = (value: number) =>
        Object.fromEntries(Array.from({ length: MAX_DATA_POINTS }, (_, i) => [`point${i}`, value]));
      expect((await store().recordLatest(d.devID, 2000, reading(2)))?.latest).toEqual(reading(2));
      expect((await store().recordLatest(d.devID, 3000, reading(3)))?.latest).toEqual(reading(3));
      expect(await store().recordLatest(d.devID, 2500, reading(1))).toBeUndefined();
      // Older, and as many points: each held one is newer, a point never reported is taken.
      const { point0: _newer, ...older } = reading(1);
      expect(await store().recordLatest(d.devID, 2500, { ...older, fresh: 1 })).toMatchObject({
        latest: { ...reading(3), fresh: 1 },
        latestAt: { point0: 3000, fresh: 2500 },
        lastSeen: 3000,
      });
    });

    it('keeps no older reading over a newer one, and makes no device of a late reading of a removed one', async () => {
      const org = id('org');
      const d = device(org, id('floor'));
      await store().register(d);
      await store().recordLatest(d.devID, 5000, { temp: 1 });
      expect(await store().recordLatest(d.devID, 4000, { temp: 0 })).toBeUndefined();
      expect((await store().get(d.devID))?.latest).toEqual({ temp: 1 });
      await edits.remove(d.devID);
      expect(await store().recordLatest(d.devID, 6000, { temp: 2 })).toBeUndefined();
      expect(await store().get(d.devID)).toBeUndefined();
      expect(await store().ofOrganization(org)).toEqual([]);
      expect(await store().onFloor(d.floorID ?? '')).toEqual([]);
    });
  });
}

export function userStoreContract(name: string, store: () => UserStore) {
  describe(`UserStore contract: ${name}`, () => {
    const user = (orgRoles: UserRecord['orgRoles']): UserRecord => {
      const userId = id('user');
      return {
        userId,
        email: `${userId}@example.com`,
        userName: 'Ada',
        orgRoles,
        createdAt: '2026-11-24T09:00:00.000Z',
        updatedAt: '2026-11-24T09:00:00.000Z',
        version: 1,
      };
    };
    const next = (read: UserRecord, changes: Partial<UserRecord>): UserRecord => ({
      ...read,
      ...changes,
      version: read.version + 1,
    });

    it('creates a record once and reads it by id, by e-mail and among many', async () => {
      const org = id('org');
      const u = user({ [org]: 1 });
      expect(await store().saveIfUnchanged(u, undefined)).toBe('saved');
      expect(await store().saveIfUnchanged(u, undefined)).toBe('changed-meanwhile');
      expect(await store().get(u.userId)).toEqual(u);
      expect(await store().findByEmail(u.email)).toEqual(u);
      expect(await store().getMany([u.userId, id('unknown'), u.userId])).toEqual([u]);
      expect(await store().memberIds(org)).toEqual([u.userId]);
    });

    it('writes only over the version read, and keeps the membership lookup in step', async () => {
      const [a, b] = [id('org'), id('org')];
      const u = user({ [a]: 1 });
      await store().saveIfUnchanged(u, undefined);
      const moved = next(u, { orgRoles: { [b]: 2 } });
      expect(await store().saveIfUnchanged(moved, u)).toBe('saved');
      expect(await store().saveIfUnchanged(next(u, { userName: 'Stale' }), u)).toBe('changed-meanwhile');
      expect(await store().get(u.userId)).toEqual(moved);
      expect(await store().memberIds(a)).toEqual([]);
      expect(await store().memberIds(b)).toEqual([u.userId]);
    });

    it('deletes only the record read, with its memberships; forgetting a membership keeps the record', async () => {
      const org = id('org');
      const u = user({ [org]: 0 });
      await store().saveIfUnchanged(u, undefined);
      const renamed = next(u, { userName: 'Grace' });
      await store().saveIfUnchanged(renamed, u);
      expect(await store().deleteIfUnchanged(u)).toBe('changed-meanwhile');
      await store().forgetMembership(org, u.userId);
      expect(await store().memberIds(org)).toEqual([]);
      expect(await store().get(u.userId)).toEqual(renamed);
      expect(await store().deleteIfUnchanged(renamed)).toBe('deleted');
      expect(await store().get(u.userId)).toBeUndefined();
    });
  });
}

export function treeStoreContract(name: string, store: () => TreeStore, users: () => UserStore) {
  describe(`TreeStore contract: ${name}`, () => {
    const now = '2026-11-24T09:00:00.000Z';
    /** An organization with a building and a floor, created by a new admin. */
    async function organization() {
      const creator = id('creator');
      await users().saveIfUnchanged(
        {
          userId: creator,
          email: `${creator}@example.com`,
          userName: 'Ada',
          orgRoles: {},
          createdAt: now,
          updatedAt: now,
          version: 1,
        },
        undefined,
      );
      const org = { orgId: id('org'), orgName: 'Acme', version: 0 };
      const building = { orgId: org.orgId, buildId: id('b'), buildName: 'HQ', version: 0 };
      const floor = {
        orgId: org.orgId,
        buildId: building.buildId,
        floorId: id('f'),
        floorName: 'Ground',
        floorDevTypes: [1, 5],
        editMode: false,
        version: 0,
      };
      expect(await store().createOrganization(org, { userId: creator, role: 2 }, now)).toBe('created');
      expect(await store().createBuilding(building, now)).toBe('created');
      expect(await store().createFloor(floor, now)).toBe('created');
      return { creator, org, building, floor };
    }

    it("creates a tree, adds the organization to its creator's record, and reads nodes by id and key", async () => {
      const { creator, org, building, floor } = await organization();
      expect((await users().get(creator))?.orgRoles).toEqual({ [org.orgId]: 2 });
      expect(await store().readOrganizationTree(org.orgId)).toEqual({
        tree: { org, buildings: [building], floors: [floor] },
        tombstones: [],
      });
      expect((await store().readOrganizationTrees([org.orgId, org.orgId, id('org')])).trees).toEqual([
        { org, buildings: [building], floors: [floor] },
      ]);
      const floorNode = { kind: 'floor', id: floor.floorId, orgId: org.orgId, buildId: building.buildId };
      expect(await store().findNode(floor.floorId)).toEqual({ ...floorNode, name: 'Ground', version: 0 });
      expect(await store().getNode({ kind: 'building', id: building.buildId, orgId: org.orgId })).toEqual({
        kind: 'building',
        id: building.buildId,
        orgId: org.orgId,
        buildId: building.buildId,
        name: 'HQ',
        version: 0,
      });
      expect(await store().findNode(id('unknown'))).toBeUndefined();
      expect(
        await store().createOrganization(
          { orgId: id('org'), orgName: 'X', version: 0 },
          { userId: id('nobody'), role: 2 },
          now,
        ),
      ).toBe('creator-missing');
    });

    it('updates a live node over the version given, answering what changed it or that it is gone', async () => {
      const { org, floor } = await organization();
      const node = (await store().findNode(floor.floorId)) as TreeNode;
      const renamed = await store().updateNode(node, { name: 'First', floorDevTypes: [2] }, 0, now);
      expect(renamed).toEqual({ outcome: 'written', value: { ...node, name: 'First', version: 1 } });
      expect(await store().updateNode(node, { name: 'Stale' }, 0, now)).toEqual({
        outcome: 'changed',
        current: { ...node, name: 'First', version: 1 },
      });
      expect((await store().readOrganizationTree(org.orgId)).tree?.floors[0]).toMatchObject({
        floorName: 'First',
        floorDevTypes: [2],
        version: 1,
      });
      expect(await store().markDeleted(node, undefined, now)).toMatchObject({ outcome: 'written' });
      expect(await store().updateNode(node, { name: 'Gone' }, undefined, now)).toEqual({
        outcome: 'missing',
      });
    });

    it('hides a deleted building with its floors, keeps it as a tombstone, and refuses creates under it', async () => {
      const { org, building, floor } = await organization();
      const node = (await store().findNode(building.buildId)) as TreeNode;
      await store().markDeleted(node, 0, now);
      const read = await store().readOrganizationTree(org.orgId);
      expect(read.tree).toEqual({ org, buildings: [], floors: [] });
      expect(read.tombstones).toEqual([{ ...node, version: 1, deletedAt: now }]);
      expect(await store().createFloor({ ...floor, floorId: id('f') }, now)).toBe('parent-missing');
      expect((await store().listFloors(org.orgId, building.buildId)).map((f) => f.id)).toEqual([
        floor.floorId,
      ]);
      expect((await store().listBuildings(org.orgId)).map((b) => b.id)).toEqual([building.buildId]);
      await store().removeNodeItem(node);
      expect(await store().findNode(building.buildId)).toBeUndefined();
      await store().removeNodeItem(node);
    });

    it('reads no tree for a deleted or unknown organization, and refuses buildings under it', async () => {
      const { org, building } = await organization();
      await store().markDeleted((await store().findNode(org.orgId)) as TreeNode, undefined, now);
      expect((await store().readOrganizationTree(org.orgId)).tree).toBeUndefined();
      expect(await store().createBuilding({ ...building, buildId: id('b') }, now)).toBe('parent-missing');
      expect(await store().createBuilding({ ...building, orgId: id('org'), buildId: id('b') }, now)).toBe(
        'parent-missing',
      );
      expect((await store().readOrganizationTrees([org.orgId, id('org')])).trees).toEqual([]);
    });
  });
}
