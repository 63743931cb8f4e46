import { COMFORT_ZONES, type NotificationPage } from '@argentum/contracts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { dynamoTelemetryStore } from '@argentum/functions/stores/telemetry-dynamodb';
import { describe, expect, it } from 'vitest';
import { call, signIn } from '../../../functions/test/support/api';
import { demoIncidents, devices } from '../../local/demo-data';
import { SEED_MARKER } from '../../local/seed';

const MINUTE = 60_000;
/** The data point each comfort warning names (as its message labels it). */
const COMFORT_LABELS: Record<string, string> = { Temperature: 'temp', Humidity: 'hum', VOC: 'voc' };
const idOf = (devName: string) => devices.find((d) => d.devName === devName)?.devID ?? '';

/** A device's seeded readings in [from, to]. */
const readings = async (devName: string, from: number, to: number) =>
  (await dynamoTelemetryStore.readRaw(idOf(devName), from, to, 1000)).items;
const storedAt = async (devName: string, time: number) => (await readings(devName, time, time))[0]?.values;

/**
 * The demo's bell shows its history's incidents, raised by the platform's own rules from the readings
 * the seed wrote: what it says must be what the readings say.
 */
describe("the demo's alarm history", () => {
  it('says what its readings say: the stuffy meeting and the power cut', async () => {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: SEED_MARKER }),
    );
    const [start, end] = [Number(Item?.historyStart), Number(Item?.historyEnd)];
    expect(end - start).toBeGreaterThan(0);
    const incidents = demoIncidents(start, end);
    const { accessToken } = await signIn('admin@example.com');
    const list = (
      await call<NotificationPage>(
        '/api/notification/getNotifications',
        { skip: 0, limit: 50 },
        { token: accessToken },
      )
    ).body.list;
    const about = (devName: string) =>
      list.filter((n) => n.properties.devID === idOf(devName) && Date.parse(n.createdAt) <= end);

    // Every CO2 warning was raised while the room was out of its zone with people in it, and
    // cleared when it was back; the meeting raised one.
    const meeting = incidents.find((i) => i.kind === 'stuffy-meeting');
    const roomAlarms = about('IEQMeeting');
    const co2Alarms = roomAlarms.filter((n) => n.message.includes(': CO2 '));
    if (!meeting) expect(co2Alarms).toEqual([]);
    else {
      const raised = co2Alarms.map((n) => Date.parse(n.createdAt));
      expect(raised.filter((t) => t >= meeting.from && t < meeting.to)).toHaveLength(1);
    }
    for (const alarm of co2Alarms) {
      const co2 = Number(/CO2 (\d+) PPM is not in comfort zone \(0-800 PPM\)\.$/.exec(alarm.message)?.[1]);
      const raisedAt = Date.parse(alarm.createdAt);
      expect(alarm.type).toBe(1);
      expect(co2).toBeGreaterThan(800);
      expect((await storedAt('IEQMeeting', raisedAt))?.co2).toBe(co2);
      expect((await storedAt('MotionMeeting', raisedAt))?.mState).toBe(1);
      const clearedAt = Date.parse(alarm.clearedAt ?? '');
      expect(clearedAt).toBeGreaterThan(raisedAt);
      expect((await storedAt('IEQMeeting', clearedAt))?.co2).toBeLessThanOrEqual(800);
      for (const r of await readings('IEQMeeting', raisedAt, clearedAt - 1))
        expect(r.values.co2).toBeGreaterThan(800);
    }

    // The room's own readings may leave another zone during the meeting too (a cool room, on some
    // days of the seeded history): such a warning names the value its reading had, outside its zone,
    // with people in the room.
    for (const alarm of roomAlarms.filter((n) => !co2Alarms.includes(n))) {
      const [, label, shown] = /: (\D+) (-?[\d.]+) \S+ is not in comfort zone/.exec(alarm.message) ?? [];
      const dp = COMFORT_LABELS[label ?? ''];
      const zone = COMFORT_ZONES[dp ?? ''];
      if (!dp || !zone) throw new Error(`not a comfort warning: ${alarm.message}`);
      const raisedAt = Date.parse(alarm.createdAt);
      const value = Number(shown);
      expect(alarm.type).toBe(1);
      expect(value < zone.min || value > zone.max).toBe(true);
      expect(Number((await storedAt('IEQMeeting', raisedAt))?.[dp]?.toFixed(1))).toBe(value);
      expect((await storedAt('MotionMeeting', raisedAt))?.mState).toBe(1);
    }

    const cut = incidents.find((i) => i.kind === 'power-cut');
    const lounge = about('MotionLounge');
    if (!cut) expect(lounge).toEqual([]);
    else {
      // Silent from the cut until it was back; 'Device Offline' once the grace period had passed.
      expect(await readings('MotionLounge', cut.from, cut.to - 1)).toEqual([]);
      expect(await storedAt('MotionLounge', cut.to)).toBeDefined();
      expect(
        lounge
          .map((n) => [n.type, n.message, n.createdAt, n.clearedAt])
          .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
      ).toEqual([
        [
          2,
          '<b>MotionLounge</b>: Device Offline',
          new Date(cut.from + 10 * MINUTE).toISOString(),
          new Date(cut.to).toISOString(),
        ],
        [0, '<b>MotionLounge</b>: Device Online', new Date(cut.to).toISOString(), undefined],
      ]);
    }
  });
});
