import type { NotificationPage } from '@argentum/contracts';
import { sqsMailQueue } from '@argentum/functions/adapters/job-queue';
import { iotNotificationPublisher } from '@argentum/functions/adapters/notification-publisher';
import {
  type AlarmDevice,
  type AlarmPorts,
  closeOfflineEpisode,
  COMFORT_ALARM_AFTER_MS,
  comfortObservations,
  observeDevice,
  observeReadings,
  raiseEvent,
  raiseOfflineEpisode,
} from '@argentum/functions/domain/notifications/alarms';
import { html } from '@argentum/functions/domain/notifications/notification-html';
import { clearNotification } from '@argentum/functions/domain/notifications/notifications';
import { dynamoAlarmStore } from '@argentum/functions/stores/alarms';
import { dynamoDevices } from '@argentum/functions/stores/devices';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { handler as mailerHandler } from '@argentum/functions/lambda/mailer';
import { beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@argentum/contracts/messaging';
import { call, createOwnOrganization, createUser, mailsTo, signInAs, waitForMail } from '../support/api';
import { newDevices, newPlace } from './devices-fixtures';
import { deviceConnection } from '../support/control';
import { connectBrowser, notificationPushesReceived } from '../support/realtime';
import { invokedAs } from '../../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const mailer = invokedAs('mailer', mailerHandler);

const ports: AlarmPorts = {
  notifications: dynamoNotificationStore,
  publisher: iotNotificationPublisher,
  users: dynamoUserStore,
  alarms: dynamoAlarmStore,
  alarmMail: sqsMailQueue,
  logger: { log: () => undefined },
  metrics: { count: () => undefined },
};

const MINUTE = 60_000;

/** The notifications about a device in a user's inbox, newest first. */
const notificationsAbout = async (token: string, devID: string) =>
  (
    await call<NotificationPage>('/api/notification/getNotifications', { skip: 0, limit: 10 }, { token })
  ).body.list.filter((n) => n.properties.devID === devID);

describe('alarm rules', () => {
  let orgId: string;
  let token: string;
  let adminEmail: string;
  const list = async () =>
    (await call<NotificationPage>('/api/notification/getNotifications', { skip: 0, limit: 50 }, { token }))
      .body.list;

  beforeAll(async () => {
    const owner = await createUser(2, []);
    orgId = await createOwnOrganization(owner.userId, 2, 'Alarm Org');
    const admin = await createUser({ [orgId]: 2 });
    adminEmail = admin.email;
    token = (await signInAs(admin)).accessToken;
  });

  const device = (): AlarmDevice => ({
    devId: `AA:${randomUUID().slice(0, 8)}`,
    orgId,
    devName: 'IEQ_Lobby',
    devType: 5,
    floorId: 'floor-1',
    buildId: 'building-1',
  });
  const reading = (d: AlarmDevice, time: number, temp: number) =>
    observeDevice(ports, d, comfortObservations(d, time, { temp, hum: 45 }), time);

  it('takes a pollutant below its comfort zone for clean air, above it for an alarm; others both ways', () => {
    const d = device();
    const active = (values: Record<string, number>) =>
      Object.fromEntries(comfortObservations(d, 0, values).map((o) => [o.condition, o.active]));
    expect(active({ voc: 0.4, co2: 0, aqi: 0 })).toEqual({
      'comfort:voc': false,
      'comfort:co2': false,
      'comfort:aqi': false,
    });
    expect(active({ voc: 1.2, co2: 950, aqi: 120 })).toEqual({
      'comfort:voc': true,
      'comfort:co2': true,
      'comfort:aqi': true,
    });
    expect(active({ temp: 21.5, hum: 35, cct: 2500 })).toEqual({
      'comfort:temp': true,
      'comfort:hum': true,
      'comfort:cct': true,
    });
    expect(active({ temp: 24, hum: 45, voc: 0.7 })).toEqual({
      'comfort:temp': false,
      'comfort:hum': false,
      'comfort:voc': false,
    });
  });

  it('raises one notification per episode once out of range for 10 minutes, and clears it', async () => {
    const d = device();
    const t0 = Date.UTC(2026, 10, 22, 9, 0);
    await reading(d, t0, 24); // in range
    await reading(d, t0 + MINUTE, 29.5); // out, episode starts
    await reading(d, t0 + 6 * MINUTE, 30);
    expect((await list()).filter((n) => n.properties.devID === d.devId)).toEqual([]);
    await reading(d, t0 + MINUTE + COMFORT_ALARM_AFTER_MS, 30.2); // lasted 10 minutes
    await reading(d, t0 + 20 * MINUTE, 31); // still out: no second notification
    // A redelivered batch of the same readings changes nothing.
    await reading(d, t0 + MINUTE + COMFORT_ALARM_AFTER_MS, 30.2);
    let mine = (await list()).filter((n) => n.properties.devID === d.devId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      type: 1,
      message: '<b>IEQ_Lobby</b>: Temperature 30.2 °C is not in comfort zone (22-26 °C).',
      properties: { orgID: orgId, floorID: 'floor-1', buildID: 'building-1', devID: d.devId },
    });
    expect(mine[0]?.clearedAt).toBeUndefined();

    await reading(d, t0 + 25 * MINUTE, 25); // back in range: cleared
    mine = (await list()).filter((n) => n.properties.devID === d.devId);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.clearedAt).toBe(new Date(t0 + 25 * MINUTE).toISOString());

    // A new episode is a new notification.
    await reading(d, t0 + 30 * MINUTE, 18);
    await reading(d, t0 + 41 * MINUTE, 17.5);
    mine = (await list()).filter((n) => n.properties.devID === d.devId);
    expect(mine.map((n) => n.message)).toEqual([
      '<b>IEQ_Lobby</b>: Temperature 17.5 °C is not in comfort zone (22-26 °C).',
      '<b>IEQ_Lobby</b>: Temperature 30.2 °C is not in comfort zone (22-26 °C).',
    ]);
  });

  it("pushes an alarm's resolution to the organization's open pages, again with its first time when redelivered (real local broker)", async () => {
    // An organization of its own: its offline alarm mails its admins, not this file's.
    const owner = await createUser(2, []);
    const pushOrg = await createOwnOrganization(owner.userId, 2, 'Alarm Push Org');
    const member = await createUser({ [pushOrg]: 0 });
    const memberToken = (await signInAs(member)).accessToken;
    const page = await connectBrowser(memberToken);
    const deviceOf = (): AlarmDevice => ({ ...device(), orgId: pushOrg });
    try {
      const { pushes } = notificationPushesReceived(page);
      await page.subscribeAsync(topics.notification(pushOrg), { qos: 1 });
      const about = (id: string) =>
        pushes.filter((p) => (p.kind === 'notification' ? p.notification._id : p._id) === id);

      // A comfort alarm, raised then back in its zone.
      const d = deviceOf();
      const t0 = Date.UTC(2026, 10, 24, 9, 0);
      await reading(d, t0, 29.5);
      await reading(d, t0 + 11 * MINUTE, 30);
      const [raised] = await notificationsAbout(memberToken, d.devId);
      if (!raised) throw new Error('no alarm raised');
      await reading(d, t0 + 15 * MINUTE, 24);
      const resolved = new Date(t0 + 15 * MINUTE).toISOString();
      const clearing = { kind: 'notificationCleared', _id: raised._id, orgID: pushOrg, clearedAt: resolved };
      await expect
        .poll(() => about(raised._id).map((p) => p.kind))
        .toEqual(['notification', 'notificationCleared']);
      expect(about(raised._id)[1]).toEqual(clearing);
      // A redelivered clearing (a later time) pushes the clearing as first recorded.
      await clearNotification(ports, raised._id, new Date(t0 + 20 * MINUTE).toISOString());
      await expect.poll(() => about(raised._id)).toHaveLength(3);
      expect(about(raised._id)[2]).toEqual(clearing);
      expect((await notificationsAbout(memberToken, d.devId))[0]?.clearedAt).toBe(resolved);

      // An offline episode that ends: its 'Device Offline' is pushed resolved, then 'Device Online'.
      const offline = deviceOf();
      const since = Date.UTC(2026, 10, 24, 10, 0);
      const offlineId = await raiseOfflineEpisode(ports, offline, since, since + 10 * MINUTE);
      await closeOfflineEpisode(
        ports,
        offline,
        { episodeSince: since, notificationId: offlineId },
        since + 30 * MINUTE,
      );
      await expect
        .poll(() => about(offlineId).map((p) => p.kind))
        .toEqual(['notification', 'notificationCleared']);
      expect(about(offlineId)[1]).toEqual({
        kind: 'notificationCleared',
        _id: offlineId,
        orgID: pushOrg,
        clearedAt: new Date(since + 30 * MINUTE).toISOString(),
      });
      expect(pushes.filter((p) => p.kind === 'notification').map((p) => p.notification.message)).toContain(
        `<b>${offline.devName}</b>: Device Online`,
      );
      // Nothing is pushed for a notification that does not exist (a marker published after it comes alone).
      await clearNotification(ports, 'no-such-notification', resolved);
      const marker = { key: 'marker', type: 0 as const, message: 'Marker', time: since + 31 * MINUTE };
      await raiseEvent(ports, offline, marker);
      await expect
        .poll(() => pushes.some((p) => p.kind === 'notification' && p.notification.message === 'Marker'))
        .toBe(true);
      expect(about('no-such-notification')).toEqual([]);
    } finally {
      await page.endAsync();
    }
  });

  it('raises once when two deliveries of the same episode race', async () => {
    const d = device();
    const t0 = Date.UTC(2026, 10, 22, 10, 0);
    await reading(d, t0, 40);
    await Promise.all(Array.from({ length: 6 }, () => reading(d, t0 + 11 * MINUTE, 41)));
    expect((await list()).filter((n) => n.properties.devID === d.devId)).toHaveLength(1);
  });

  it('applies every one of a dozen readings of a device that arrive at once, and raises once', async () => {
    // Several ingest instances can hold batches of one device: each state write that loses is tried
    // again, so no reading's observations are left out, and every raise of the episode, whichever
    // reading's time it came with, is its one notification.
    const d = device();
    const t0 = Date.UTC(2026, 10, 22, 12, 0);
    await reading(d, t0, 40);
    const minutes = [7, 2, 11, 1, 5, 9, 3, 12, 4, 8, 6, 10];
    const states = await Promise.all(minutes.map((m) => reading(d, t0 + m * MINUTE, 41)));
    expect(states.filter((s) => s === undefined)).toEqual([]);
    const raised = (await list()).filter((n) => n.properties.devID === d.devId);
    expect(raised).toEqual([expect.not.objectContaining({ clearedAt: expect.anything() })]);
    expect((await dynamoAlarmStore.get(d.devId))?.conditions['comfort:temp']).toMatchObject({
      since: t0,
      notificationId: raised[0]?._id,
    });
  });

  it('raises and resolves a comfort alarm from telemetry a device publishes (broker -> rule -> ingest)', async () => {
    const place = await newPlace('Alarm Place');
    const member = await createUser({ [place.orgId]: 0 });
    const memberToken = (await signInAs(member)).accessToken;
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'IEQ_Hall' }], place.floorId);
    if (!sensor) throw new Error('no sensor');
    const device = await deviceConnection(place.orgId, sensor.devID);
    const send = (time: number, co2: number) =>
      device.publishAsync(
        topics.sensorData(place.orgId, sensor.devID),
        JSON.stringify({ devID: sensor.devID, devType: 5, time, values: { co2, temp: 23 } }),
        { qos: 1 },
      );
    const alarmsOf = () => notificationsAbout(memberToken, sensor.devID);
    try {
      const t0 = Date.now() - 30 * MINUTE;
      await send(t0, 1450);
      await send(t0 + 11 * MINUTE, 1500);
      await expect
        .poll(async () => (await alarmsOf()).map((n) => n.message))
        .toEqual(['<b>IEQ_Hall</b>: CO2 1500 PPM is not in comfort zone (0-800 PPM).']);
      await send(t0 + 15 * MINUTE, 600);
      await expect
        .poll(async () => (await alarmsOf())[0]?.clearedAt)
        .toBe(new Date(t0 + 15 * MINUTE).toISOString());
    } finally {
      await device.endAsync();
    }
  });

  it("holds a comfort alarm while the floor's motion sensor reports it free, through the broker and ingest", async () => {
    const place = await newPlace('Alarm Night Place');
    const member = await createUser({ [place.orgId]: 0 });
    const memberToken = (await signInAs(member)).accessToken;
    const [sensor, motion] = await newDevices(
      place,
      [
        { devType: 5, devName: 'IEQ_Night' },
        { devType: 4, devName: 'Motion_Night' },
      ],
      place.floorId,
    );
    if (!sensor || !motion) throw new Error('no devices');
    const sensorLink = await deviceConnection(place.orgId, sensor.devID);
    const motionLink = await deviceConnection(place.orgId, motion.devID);
    const publish = (
      link: typeof sensorLink,
      device: typeof sensor,
      time: number,
      values: Record<string, number>,
    ) =>
      link.publishAsync(
        topics.sensorData(place.orgId, device.devID),
        JSON.stringify({ devID: device.devID, devType: device.devType, time, values }),
        { qos: 1 },
      );
    /** Publishes and waits until ingest has recorded the reading (the device's latest is its time). */
    const report = async (
      link: typeof sensorLink,
      device: typeof sensor,
      time: number,
      values: Record<string, number>,
    ) => {
      await publish(link, device, time, values);
      await expect.poll(async () => (await dynamoDevices.get(device.devID))?.lastSeen).toBe(time);
    };
    /**
     * A reading of the IEQ sensor that changes its alarm state, and the wait until the comfort rule has
     * written it: ingest takes batches side by side, as Lambda does, and a reading overtaken by a later
     * one is ignored, so each is taken before the next is sent.
     */
    const sense = async (time: number, values: Record<string, number>) => {
      await publish(sensorLink, sensor, time, values);
      await expect.poll(async () => (await dynamoAlarmStore.get(sensor.devID))?.observedAt).toBe(time);
    };
    const alarmsOf = () => notificationsAbout(memberToken, sensor.devID);
    try {
      const t0 = Date.now() - 60 * MINUTE;
      await report(motionLink, motion, Date.now(), { mState: 0 });
      await sense(t0, { co2: 1450, temp: 23 });
      // 22 minutes out of the zone (and cold too, a change of state that shows it was taken).
      await sense(t0 + 22 * MINUTE, { co2: 1500, temp: 21 });
      expect(await alarmsOf()).toEqual([]);
      // Someone comes in: ten minutes of their being there later, the air is still bad.
      await report(motionLink, motion, Date.now(), { mState: 1 });
      await sense(t0 + 30 * MINUTE, { co2: 1520, temp: 23 });
      expect(await alarmsOf()).toEqual([]);
      await sense(t0 + 40 * MINUTE, { co2: 1530, temp: 23 });
      expect((await alarmsOf()).map((n) => n.message)).toEqual([
        '<b>IEQ_Night</b>: CO2 1530 PPM is not in comfort zone (0-800 PPM).',
      ]);
    } finally {
      await Promise.all([sensorLink.endAsync(), motionLink.endAsync()]);
    }
  });

  it('raises a comfort alarm only once its floor has also been in use for 10 minutes', async () => {
    const d = device();
    const t0 = Date.UTC(2026, 10, 23, 2, 0);
    let inUse = false;
    const at = (minutes: number, temp: number) =>
      observeDevice(
        ports,
        d,
        comfortObservations(d, t0 + minutes * MINUTE, { temp, hum: 45 }),
        t0 + minutes * MINUTE,
        async () => inUse,
      );
    const mine = async () => (await list()).filter((n) => n.properties.devID === d.devId);
    // An empty office cooling at night: out of its zone for hours, and nobody there.
    for (let minute = 0; minute <= 240; minute += 15) await at(minute, 21.2);
    expect(await mine()).toEqual([]);
    // People arrive; the room is still cold: it counts from their arrival.
    inUse = true;
    await at(241, 21.3);
    await at(246, 21.4);
    expect(await mine()).toEqual([]);
    // A break (the floor empty again for a reading) starts the count again.
    inUse = false;
    await at(248, 21.4);
    inUse = true;
    await at(249, 21.5);
    await at(258, 21.5);
    expect(await mine()).toEqual([]);
    await at(259, 21.6);
    expect((await mine()).map((n) => [n.message, n.createdAt])).toEqual([
      [
        '<b>IEQ_Lobby</b>: Temperature 21.6 °C is not in comfort zone (22-26 °C).',
        new Date(t0 + 259 * MINUTE).toISOString(),
      ],
    ]);
    // Once raised, the episode is one notification, whether people stay or leave, until it clears.
    inUse = false;
    await at(270, 21.5);
    await at(280, 22.5);
    const [raised] = await mine();
    expect(raised?.clearedAt).toBe(new Date(t0 + 280 * MINUTE).toISOString());
    expect(await mine()).toHaveLength(1);
  });

  it('raises nothing for a device on no floor, and clears the alarm it had before it was taken off', async () => {
    const d = device();
    const t0 = Date.UTC(2026, 10, 23, 9, 0);
    let placed: AlarmDevice = d;
    const floorsAsked: string[] = [];
    const deps = {
      ...ports,
      devices: {
        get: async (devId: string) => (devId === d.devId ? placed : undefined),
        noteAlarmOpened: async () => undefined,
      },
      occupancy: {
        inUse: async (floorId: string) => {
          floorsAsked.push(floorId);
          return true;
        },
      },
    };
    const at = (minutes: number, co2: number) =>
      observeReadings(
        deps,
        [{ devId: d.devId, time: t0 + minutes * MINUTE, values: { co2 } }],
        t0 + minutes * MINUTE,
      );
    const mine = async () => (await list()).filter((n) => n.properties.devID === d.devId);
    await at(0, 1400);
    await at(11, 1450);
    expect((await mine()).map((n) => n.message)).toEqual([
      '<b>IEQ_Lobby</b>: CO2 1450 PPM is not in comfort zone (0-800 PPM).',
    ]);
    expect(floorsAsked).toContain('floor-1');
    // Taken off its floor (a spare again): its open alarm still clears when the air is good.
    const { floorId: _floor, buildId: _building, ...unplaced } = d;
    placed = unplaced;
    await at(15, 600);
    expect((await mine())[0]?.clearedAt).toBe(new Date(t0 + 15 * MINUTE).toISOString());
    // In a cupboard it may read anything for hours: nothing is raised, and no floor is asked about.
    floorsAsked.length = 0;
    for (let minute = 20; minute <= 200; minute += 15) await at(minute, 1600);
    expect(await mine()).toHaveLength(1);
    expect(floorsAsked).toEqual([]);
  });

  it('ignores comfort zones for device types 2, 7, 8 and 9', () => {
    for (const devType of [2, 7, 8, 9])
      expect(comfortObservations({ devType, devName: 'x', devId: 'x' }, 0, { temp: 99 })).toEqual([]);
    expect(
      comfortObservations({ devType: 5, devName: 'x', devId: 'x' }, 0, { pressure: 101_300 })[0]?.active,
    ).toBe(false);
    expect(
      comfortObservations({ devType: 5, devName: 'x', devId: 'x' }, 0, { pressure: 90_000 })[0]?.active,
    ).toBe(true);
  });

  it('raises one Device Offline for an episode that the sweep and ingest raise at different times', async () => {
    // An organization of its own: its error alarm mails nobody this file's other tests wait for.
    const d = { ...device(), orgId: `alarm-offline-${randomUUID()}` };
    const since = Date.UTC(2026, 10, 22, 13, 0);
    const ids = await Promise.all(
      [10, 11, 12].map((m) => raiseOfflineEpisode(ports, d, since, since + m * MINUTE)),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await dynamoNotificationStore.get(ids[0] ?? '')).toMatchObject({
      createdAt: expect.any(String),
      properties: { devID: d.devId },
    });
  });

  it('mails an error alarm to the admins once, with a link to the device', async () => {
    const d = device();
    const event = {
      key: 'pairing-1',
      type: 2 as const,
      message: html`<b>${d.devName}</b>: Pairing of device is unsuccessful.`,
      time: Date.UTC(2026, 10, 22, 11),
    };
    await raiseEvent(ports, d, event);
    await raiseEvent(ports, d, event); // redelivered
    const mail = await waitForMail(adminEmail);
    expect(mail.subject).toBe('Argentum alarm: IEQ_Lobby: Pairing of device is unsuccessful.');
    expect(mail.text).toContain(`/home?floor=floor-1&highlight=${encodeURIComponent(d.devId)}`);
    // The queue delivers at least once: the mailer given the same job again mails nobody twice.
    const notificationId = (await list()).find((n) => n.properties.devID === d.devId)?._id ?? '';
    const job = { messageId: 'm', body: JSON.stringify({ kind: 'alarm', notificationId }) } as SQSRecord;
    expect(await mailer({ Records: [job, job] })).toEqual({ batchItemFailures: [] });
    expect((await mailsTo(adminEmail)).filter((m) => m.subject === mail.subject)).toHaveLength(1);
    expect((await list()).filter((n) => n.properties.devID === d.devId)).toHaveLength(1);
  });
});
