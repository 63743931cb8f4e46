import type { QueuedReading } from '@argentum/functions/domain/telemetry/ingest';
import type { TelemetryIntakePorts } from '@argentum/functions/domain/telemetry/intake';
import { alarmPorts } from '@argentum/functions/lambda/wiring/notifications';
import { presencePorts } from '@argentum/functions/lambda/wiring/presence';
import { ingestTelemetryStore } from '@argentum/functions/lambda/wiring/telemetry';
import { dynamoAlarmStore } from '@argentum/functions/stores/alarms';
import { dynamoDevices } from '@argentum/functions/stores/devices';
import { describe, expect, it, vi } from 'vitest';
import { newDevices, newPlace } from './devices-fixtures';
import { daysAgo } from '../support/recent';

const MINUTE = 60_000;

/** The ingest use case as one Lambda instance runs it: its own modules, so its own in-memory caches. */
async function instance() {
  vi.resetModules();
  return (await import('@argentum/functions/domain/telemetry/intake')).takeTelemetry;
}

describe('comfort alarms taken by two ingest instances (DynamoDB Local)', () => {
  it('raises a warning 10 minutes after the last reading in the zone, whichever instance took it', async () => {
    const place = await newPlace('Comfort Instances Org');
    const [room] = await newDevices(place, [{ devType: 5, devName: 'Meeting room' }], place.floorId);
    if (!room) throw new Error('no device');
    const start = daysAgo(1) + 9 * 3_600_000; // yesterday at 09:00 (UTC)
    let now = start;
    const raisedAt: number[] = [];
    const alarms = alarmPorts();
    const ports: TelemetryIntakePorts = {
      telemetry: ingestTelemetryStore,
      devices: dynamoDevices,
      deadLetters: { send: async (letters) => void expect(letters).toEqual([]) },
      alarms: {
        ...alarms,
        metrics: { count: (name, value) => void (name === 'Raised' && value > 0 && raisedAt.push(now)) },
      },
      presence: presencePorts(),
      liveFloors: { publisher: { publish: async () => undefined } },
      logger: { log: () => undefined },
      metrics: { count: () => undefined },
      clock: { now: () => new Date(now) },
    };
    const [a, b] = [await instance(), await instance()];
    let received = 0;
    /** A reading a minute, taken by `take`. */
    const minute = async (take: typeof a, temp: number) => {
      const message = {
        devID: room.devID,
        devType: 5,
        values: { temp },
        time: now,
        orgId: place.orgId,
        topicDevId: room.devID,
        receivedAt: now,
      };
      const record: QueuedReading = {
        id: `c${received++}`,
        body: JSON.stringify(message),
        receives: 1,
        sentAt: now,
      };
      expect(await take(ports, [record])).toEqual([]);
      now += MINUTE;
    };

    // 09:00: A finds the room in its zone, and no open condition.
    await minute(a, 24);
    // 09:01-09:03: out of its zone, taken by B: an episode opens at 09:01.
    for (let i = 1; i <= 3; i++) await minute(b, 30);
    // 09:04: back in its zone, taken by A, which found no open condition 4 minutes ago.
    await minute(a, 24);
    expect.soft((await dynamoAlarmStore.get(room.devID))?.conditions).toEqual({});
    // From 09:05 out of its zone again: a new episode, raised at 09:15 (not at 09:11).
    for (let i = 5; i <= 15; i++) await minute(b, 30);
    expect(raisedAt).toEqual([start + 15 * MINUTE]);
    // Each episode opened was counted on the device item, which A's reading's own write answered.
    expect((await dynamoDevices.get(room.devID))?.alarmsOpened).toBe(2);
  });
});
