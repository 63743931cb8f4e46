import { DeviceType, type NotificationPage } from '@argentum/contracts';
import type { QueuedReading } from '@argentum/functions/domain/telemetry/ingest';
import { takeTelemetry, type TelemetryIntakePorts } from '@argentum/functions/domain/telemetry/intake';
import { alarmPorts } from '@argentum/functions/lambda/wiring/notifications';
import { ingestTelemetryStore } from '@argentum/functions/lambda/wiring/telemetry';
import { dynamoAlarmMailRate, dynamoAlarmStore } from '@argentum/functions/stores/alarms';
import { dynamoDevices } from '@argentum/functions/stores/devices';
import { sqsMailQueue } from '@argentum/functions/adapters/job-queue';
import {
  ALARM_MAIL_WINDOW_MS,
  ALARM_MAILS_AT_ONCE_PER_WINDOW,
  queueDueDigests,
} from '@argentum/functions/domain/notifications/alarm-mail';
import { presencePorts } from '@argentum/functions/lambda/wiring/presence';
import { dynamoAlarmSettings } from '@argentum/functions/stores/alarm-settings';
import { describe, expect, it } from 'vitest';
import { call, createUser, mailsTo, signInAs } from '../../../functions/test/support/api';
import { newDevices, newPlace } from '../../../functions/test/platform/devices-fixtures';
import { announce } from '../../../functions/test/support/control';
import { sweepWatched } from '../../../functions/test/support/presence-sweep';
import { seededRandom, stormyBehaviour } from '../../local/simulator';
import { devices as demoDevices, readingAt } from '../../local/demo-data';

const MINUTE = 60_000;
/** The simulator's telemetry round (its default pace). */
const ROUND_MS = 30_000;

/**
 * A stormy hour, as the simulator's stormy profile plays it (each device drops off once in a hundred
 * rounds for 2-6 rounds), driven on a clock of the test's own: announcements through the confirmation
 * rule's handler, the presence sweep every minute and the digest run every minute, as their schedules
 * do. The organization's grace is 1 minute, so most spells become alarms: a recipient must still get
 * at most one mail at once and one digest per mail window.
 */
describe('alarm mail in a stormy hour', () => {
  it('sends a recipient at most the configured mails per window however many devices alarm', async () => {
    const place = await newPlace('Stormy Org');
    const admin = await createUser({ [place.orgId]: 2 });
    const { accessToken } = await signInAs(admin);
    const saved = await call(
      '/api/notification/setAlarmSettings',
      { orgID: place.orgId, offlineGraceMinutes: 1, alarmUnplacedDevices: false },
      { token: accessToken },
    );
    expect(saved.status).toBe(200);
    await dynamoAlarmSettings.get(place.orgId, true);
    const devices = await newDevices(
      place,
      Array.from({ length: 16 }, (_, i) => ({ devType: 5, devName: `Storm ${i + 1}` })),
      place.floorId,
    );

    const sweep = (time: number) => sweepWatched((d) => d.orgID === place.orgId, time);
    const announceOf = (devID: string, online: boolean, time: number) =>
      announce(place.orgId, devID, online, time);
    const digests = (time: number) =>
      queueDueDigests({ alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue }, time);

    // The hour starts at a window's start, so it spans exactly 4 mail windows.
    const t0 = Math.ceil(Date.now() / ALARM_MAIL_WINDOW_MS) * ALARM_MAIL_WINDOW_MS;
    const random = seededRandom(20261124);
    const offlineRounds = new Map<string, number>();
    for (const d of devices) await announceOf(d.devID, true, t0);
    for (let round = 1; round <= 120; round++) {
      const time = t0 + round * ROUND_MS;
      for (const d of devices) {
        const left = offlineRounds.get(d.devID) ?? 0;
        if (left > 0) {
          offlineRounds.set(d.devID, left - 1);
          if (left === 1) await announceOf(d.devID, true, time);
        } else if (random() < stormyBehaviour.offlineRate * 4) {
          // Four times the profile's rate: 16 devices then make as many spells as 64 would.
          const [min, max] = stormyBehaviour.offlineRounds;
          offlineRounds.set(d.devID, Math.round(min + random() * (max - min)));
          await announceOf(d.devID, false, time);
        }
      }
      if (round % 2 === 0) {
        await sweep(time);
        await digests(time);
      }
    }
    await digests(t0 + 60 * MINUTE + ALARM_MAIL_WINDOW_MS);

    const notifications: NotificationPage['list'] = [];
    for (let skip = 0; ; skip += 50) {
      const page = await call<NotificationPage>(
        '/api/notification/getNotifications',
        { skip, limit: 50 },
        { token: accessToken },
      );
      expect(page.status).toBe(200);
      notifications.push(...page.body.list);
      if (!page.body.hasMore) break;
    }
    const offlineAlarms = notifications.filter((n) => n.message.endsWith('Device Offline'));
    // The storm was real: many episodes outlasted the grace and raised an alarm each.
    expect(offlineAlarms.length).toBeGreaterThan(8);
    // Mail: per 15-minute window, the first alarm at once and the rest in one digest.
    const windows = 60 / (ALARM_MAIL_WINDOW_MS / MINUTE);
    const bound = windows * (ALARM_MAILS_AT_ONCE_PER_WINDOW + 1);
    await expect
      .poll(async () => (await mailsTo(admin.email)).length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    const mails = await mailsTo(admin.email);
    expect(mails.length).toBeLessThanOrEqual(bound);
    expect(mails.length).toBeLessThan(offlineAlarms.length);
  });
});

/**
 * A night of the demo's ground floor, as the realistic profile plays it (`readingAt`: the office
 * cools below its 22 °C comfort zone after dark, and its motion sensors now and then see someone),
 * taken by ingest minute by minute on a clock of the test's own: an empty building at night raises
 * no comfort alarm, though its rooms are out of their zone for hours. Then its motion sensors fall
 * silent: once presence has them offline, nothing can tell the floor is empty, and the cold rooms alarm.
 */
describe('comfort alarms over a night of the demo', () => {
  // Nine hours of minutes through ingest against DynamoDB Local: ~25 s on a quiet machine.
  it(
    'raises none while nobody is there, and one a room once its motion sensors fall silent',
    { timeout: 180_000 },
    async () => {
      const place = await newPlace('Night Org');
      const member = await createUser({ [place.orgId]: 0 });
      const { accessToken } = await signInAs(member);
      const demo = demoDevices.filter(
        (d) =>
          d.floorID === 'flr-demo-ground' && [DeviceType.ieq, DeviceType.motion].includes(d.devType as 4 | 5),
      );
      expect(demo.filter((d) => d.devType === DeviceType.ieq).length).toBeGreaterThan(0);
      expect(demo.filter((d) => d.devType === DeviceType.motion).length).toBeGreaterThan(0);
      const placed = await newDevices(
        place,
        demo.map((d) => ({ devType: d.devType, devName: d.devName, dataPoints: d.dataPoints })),
        place.floorId,
      );

      let now = Date.UTC(2026, 10, 24, 20, 0); // a Tuesday, 20:00 UTC
      const ports: TelemetryIntakePorts = {
        telemetry: ingestTelemetryStore,
        devices: dynamoDevices,
        deadLetters: { send: async (letters) => void expect(letters).toEqual([]) },
        alarms: alarmPorts(),
        presence: presencePorts(),
        liveFloors: { publisher: { publish: async () => undefined } },
        logger: { log: () => undefined },
        metrics: { count: () => undefined },
        clock: { now: () => new Date(now) },
      };
      const random = seededRandom(20261128);
      let received = 0;
      /** A minute of readings from `devices` (the placed ones, read as their demo originals play). */
      const minute = async (devices: typeof placed) => {
        const batch: QueuedReading[] = devices.flatMap((device) => {
          const values = readingAt(demo[placed.indexOf(device)] as (typeof demo)[number], now, random);
          if (!values) return [];
          const body = { devID: device.devID, devType: device.devType, values, time: now };
          const message = { ...body, orgId: place.orgId, topicDevId: device.devID, receivedAt: now };
          return [{ id: `r${received++}`, body: JSON.stringify(message), receives: 1, sentAt: now }];
        });
        expect(await takeTelemetry(ports, batch)).toEqual([]);
      };
      const end = Date.UTC(2026, 10, 25, 4, 0);
      for (; now <= end; now += MINUTE) await minute(placed);

      // The rooms were out of their zone all night, and a motion sensor saw someone now and then.
      const ieqs = placed.filter((d) => d.devType === DeviceType.ieq);
      for (const ieq of ieqs) {
        expect((await dynamoDevices.get(ieq.devID))?.latest?.temp).toBeLessThan(22);
        expect(Object.keys((await dynamoAlarmStore.get(ieq.devID))?.conditions ?? {})).toContain(
          'comfort:temp',
        );
      }
      const list = await call<NotificationPage>(
        '/api/notification/getNotifications',
        { skip: 0, limit: 50 },
        { token: accessToken },
      );
      expect(list.body.list.map((n) => n.message)).toEqual([]);

      // 04:00: the motion sensors' batteries die. The rooms are still cold, and the presence sweep
      // (every minute, as scheduled) has the sensors offline after three of their 5-minute intervals.
      const sweep = () => sweepWatched((d) => d.orgID === place.orgId, now);
      const silentFrom = now;
      for (; now <= silentFrom + 60 * MINUTE; now += MINUTE) {
        await minute(ieqs);
        await sweep();
      }
      const comfort = (
        await call<NotificationPage>(
          '/api/notification/getNotifications',
          { skip: 0, limit: 50 },
          { token: accessToken },
        )
      ).body.list.filter((n) => n.message.includes('is not in comfort zone'));
      // One warning a room, once silence made the sensors offline and the room had been in use, as far
      // as anyone can tell, for 10 minutes.
      expect(comfort.map((n) => n.properties.devID).sort()).toEqual(ieqs.map((d) => d.devID).sort());
      const offlineFrom = silentFrom + 15 * MINUTE;
      for (const n of comfort) {
        expect(n.message).toMatch(/Temperature 2\d\.\d °C is not in comfort zone \(22-26 °C\)\.$/);
        expect(Date.parse(n.createdAt)).toBeGreaterThanOrEqual(offlineFrom + 10 * MINUTE);
        expect(Date.parse(n.createdAt)).toBeLessThanOrEqual(offlineFrom + 13 * MINUTE);
      }
    },
  );
});
