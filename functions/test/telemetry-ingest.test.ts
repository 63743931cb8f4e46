import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { topics } from '@argentum/contracts/messaging';
import { connectLocalDevice } from '../../infra/local/device-credentials';
import { ENV } from '../src/environment';
import { dynamoDevices } from '../src/stores/devices';
import { dynamoTelemetryStore } from '../src/stores/telemetry-dynamodb';
import { stack } from './support/api';
import { freshDevId, registerDevice, seriesItems, waitUntil } from './support/telemetry';

interface DeadLetter {
  messageId: string;
  body: string;
  reason: string;
}

const deadLettersUrl = () => stack.env[ENV.telemetryDeadLetterQueueUrl] as string;
const deadLetters = async () => (await (await fetch(deadLettersUrl())).json()) as DeadLetter[];
/** Makes the local queue deliver again every batch that held a record containing `match` (at least once). */
async function redeliver(match: string): Promise<number> {
  const response = await fetch(`${deadLettersUrl()}/redeliver`, {
    method: 'POST',
    body: JSON.stringify({ match }),
  });
  return ((await response.json()) as { records: number }).records;
}

/** Each device publishes over its own connection (the broker binds a connection to one device). */
const publishers = new Map<string, Promise<MqttClient>>();
const publisherOf = (orgId: string, devId: string) => {
  const key = `${orgId}/${devId}`;
  if (!publishers.has(key))
    publishers.set(
      key,
      connectLocalDevice(`mqtt://127.0.0.1:${stack.mqttPort}`, stack.deviceSecret, { orgId, devId }),
    );
  return publishers.get(key) as Promise<MqttClient>;
};
afterAll(async () => {
  await Promise.all([...publishers.values()].map(async (client) => (await client).endAsync()));
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const startOfDayUtc = (time: number) => Math.floor(time / DAY) * DAY;
const publish = async (orgId: string, devId: string, message: unknown) =>
  (await publisherOf(orgId, devId)).publishAsync(
    topics.sensorData(orgId, devId),
    typeof message === 'string' ? message : JSON.stringify(message),
    {
      qos: 1,
    },
  );

const sum = (items: Record<string, unknown>[], attribute: string) =>
  items.reduce((n, item) => n + Number(item[attribute] ?? 0), 0);

describe('ingest over the broker (device -> MQTT -> IoT rule -> queue -> ingest)', () => {
  it('stores a burst with every message published twice and every batch delivered again: nothing lost, nothing doubled', async () => {
    const orgId = `tel-${randomUUID()}`;
    // 8 devices of 45 readings each, each sent twice: 90 publishes a connection, within IoT Core's 100
    // a second (past them the broker, as IoT Core, discards).
    const devices = Array.from({ length: 8 }, () => freshDevId());
    for (const devId of devices) await registerDevice(devId, orgId);
    // Two days ago, 23:40 UTC: recent enough for ingest's window, and the readings run over midnight.
    const base = startOfDayUtc(Date.now() - 2 * DAY) + 23 * HOUR + 40 * 60_000;
    const readings = Array.from({ length: 8 * 45 }, (_, i) => ({
      devId: devices[i % 8] as string,
      message: {
        devID: devices[i % 8],
        devType: 5,
        time: base + Math.floor(i / 8) * 40_000, // 45 readings a device, 40 s apart, over midnight
        values: { temp: 20 + (i % 10), hum: 40 + (i % 5) },
      },
    }));
    // The burst: everything at once, and each message twice (a device that resends, QoS 1 duplicates).
    await Promise.all(
      readings.flatMap((r) => [publish(orgId, r.devId, r.message), publish(orgId, r.devId, r.message)]),
    );

    const expected = (devId: string) => {
      const mine = readings.filter((r) => r.devId === devId).map((r) => r.message.values);
      return {
        count: mine.length,
        temp: mine.reduce((n, v) => n + v.temp, 0),
        hum: mine.reduce((n, v) => n + v.hum, 0),
        minTemp: Math.min(...mine.map((v) => v.temp)),
        maxTemp: Math.max(...mine.map((v) => v.temp)),
      };
    };
    const settled = async (devId: string) => {
      const want = expected(devId);
      // A shared, busy DynamoDB Local: give the burst time, the test's timeout bounds it.
      await waitUntil(
        async () => ((await seriesItems(devId, 'raw')).length === want.count ? true : undefined),
        120_000,
      );
      await waitUntil(
        async () => (sum(await seriesItems(devId, 'hour'), 'n') === want.count ? true : undefined),
        120_000,
      );
    };
    for (const devId of devices) await settled(devId);

    // SQS delivers at least once: the same batches again.
    for (const devId of devices) expect(await redeliver(devId)).toBeGreaterThan(0);

    for (const devId of devices) {
      const want = expected(devId);
      const raw = await seriesItems(devId, 'raw');
      expect(raw).toHaveLength(want.count);
      const hours = await seriesItems(devId, 'hour');
      expect(sum(hours, 'n')).toBe(want.count);
      expect(sum(hours, 'count_temp')).toBe(want.count);
      expect(sum(hours, 'sum_temp')).toBe(want.temp);
      expect(sum(hours, 'sum_hum')).toBe(want.hum);
      const days = (await dynamoTelemetryStore.readBuckets(devId, 'day', base - DAY, base + DAY, 10)).items;
      expect(days.map((d) => d.time)).toEqual([startOfDayUtc(base), startOfDayUtc(base) + DAY]);
      expect(days.reduce((n, d) => n + (d.stats.temp?.count ?? 0), 0)).toBe(want.count);
      expect(days.reduce((n, d) => n + (d.stats.temp?.sum ?? 0), 0)).toBe(want.temp);
      expect(Math.min(...days.map((d) => d.stats.temp?.min ?? NaN))).toBe(want.minTemp);
      expect(Math.max(...days.map((d) => d.stats.temp?.max ?? NaN))).toBe(want.maxTemp);
      expect(hours.every((h) => Number(h.t) % HOUR === 0)).toBe(true);
    }
  }, 280_000);

  it('sends what is not a reading to the dead letters with its reason', async () => {
    const marker = randomUUID();
    await publish('tel-x', 'x', { devID: 'x', values: 'nope', marker });
    await publish('tel-x', 'x', `not json ${marker}`);
    // A character SQS does not take: the rule's SQS action fails, and IoT Core's error action logs it.
    await publish('tel-x', 'x', { devID: 'x', devType: 5, values: { temp: 21 }, note: '\uffff', marker });
    const letters = await waitUntil(async () => {
      const found = (await deadLetters()).filter((l) => l.body.includes(marker));
      return found.length === 3 ? found : undefined;
    });
    expect(letters.map((l) => l.reason).sort()).toEqual([
      'not JSON (topic tel-x/sensordata/x)',
      'not a reading: devType: devType is required.',
      "the rule's SQS action failed: InvalidMessageContents (topic tel-x/sensordata/x)",
    ]);
  });

  it("refuses a device's reading of a sibling device on its own topic, and stores its own", async () => {
    const orgId = `tel-${randomUUID()}`;
    const [device, sibling] = [freshDevId(), freshDevId()];
    await registerDevice(device, orgId);
    await registerDevice(sibling, orgId);
    const time = Date.now() - HOUR;
    await publish(orgId, device, { devID: sibling, devType: 5, time, values: { temp: 40 } });
    await publish(orgId, device, { devID: device, devType: 5, time, values: { temp: 21 } });
    const letter = await waitUntil(async () => (await deadLetters()).find((l) => l.body.includes(sibling)));
    expect(letter.reason).toBe(`device ${device} published a reading of device ${sibling}`);
    await waitUntil(async () => ((await seriesItems(device, 'raw')).length === 1 ? true : undefined));
    expect(await seriesItems(sibling, 'raw')).toEqual([]);
  });

  it('tries a device that is not registered again, and dead-letters it after the last delivery', async () => {
    const orgId = `tel-${randomUUID()}`;
    const stranger = freshDevId();
    const time = Date.now() - HOUR;
    await publish(orgId, stranger, { devID: stranger, devType: 5, time, values: { temp: 21 } });
    const letter = await waitUntil(
      async () => (await deadLetters()).find((l) => l.body.includes(stranger)),
      30_000,
    );
    expect(letter.reason).toBe(`device ${stranger} is not registered in organization ${orgId}`);
    expect(await seriesItems(stranger, 'raw')).toEqual([]);
  });

  it('stores the readings of a device registered a moment after they arrived', async () => {
    const orgId = `tel-${randomUUID()}`;
    const known = freshDevId();
    const late = freshDevId();
    await registerDevice(known, orgId);
    const time = Date.now() - HOUR;
    await publish(orgId, late, { devID: late, devType: 5, time, values: { temp: 22 } });
    await publish(orgId, known, { devID: known, devType: 5, time, values: { temp: 23 } });
    // The known device's reading was in the same batch: the late one has been refused once by now.
    await waitUntil(async () => ((await seriesItems(known, 'raw')).length === 1 ? true : undefined));
    expect(await seriesItems(late, 'raw')).toEqual([]);
    await registerDevice(late, orgId);
    const [stored] = await waitUntil(async () => {
      const items = await seriesItems(late, 'raw');
      return items.length === 1 ? items : undefined;
    });
    expect(stored).toMatchObject({ t: time, v: { temp: 22 } });
  });
  it("stores the other readings of a batch that holds a poison value: another organization's and a sibling's", async () => {
    const [orgA, orgB] = [`tel-${randomUUID()}`, `tel-${randomUUID()}`];
    const [poisoned, sibling, foreign] = [freshDevId(), freshDevId(), freshDevId()];
    await registerDevice(poisoned, orgA);
    await registerDevice(sibling, orgA);
    await registerDevice(foreign, orgB);
    const time = Date.now() - 60_000;
    const normal = (devID: string) => ({ devID, devType: 5, time, values: { temp: 21.5 } });
    // 2^53 + 1 as the device wrote it: JSON.parse makes it 2^53, past DynamoDB's safe integers.
    const poison = `{"devID":"${poisoned}","devType":5,"time":${time},"values":{"temp":9007199254740993}}`;
    // Published together, they travel in one batch (the local window is 1 s).
    await Promise.all([
      publish(orgA, poisoned, poison),
      publish(orgB, foreign, normal(foreign)),
      publish(orgA, sibling, normal(sibling)),
      publish(orgA, poisoned, { devID: poisoned, devType: 5, time, values: { temp: 1e300 } }),
      // Within range, but under DynamoDB's smallest number, and a point the document client cannot map.
      publish(orgA, poisoned, { devID: poisoned, devType: 5, time, values: { temp: 1e-200 } }),
      publish(
        orgA,
        poisoned,
        `{"devID":"${poisoned}","devType":5,"time":${time},"values":{"constructor":21}}`,
      ),
    ]);
    for (const devId of [foreign, sibling])
      await waitUntil(async () => ((await seriesItems(devId, 'raw')).length === 1 ? true : undefined));
    const letters = await waitUntil(async () => {
      const found = (await deadLetters()).filter((l) => l.body.includes(poisoned));
      return found.length === 4 ? found : undefined;
    });
    const reasons = letters.map((l) => l.reason);
    expect(reasons.filter((r) => /^not a reading: values\.temp: /.test(r))).toHaveLength(3);
    expect(reasons).toEqual(
      expect.arrayContaining([
        'not a reading: values.temp: The number must be 0 or between 1e-130 and 9007199254740991 in size.',
        "not a reading: values: data point 'constructor' is not an allowed name.",
      ]),
    );
    expect(await seriesItems(poisoned, 'raw')).toEqual([]);
  });

  it("refuses readings dated in the future or in 1970: dead letters with the reason, the device's latest values stay current", async () => {
    const orgId = `tel-${randomUUID()}`;
    const devId = freshDevId();
    await registerDevice(devId, orgId);
    const now = Date.now();
    await publish(orgId, devId, { devID: devId, devType: 5, time: now + 365 * DAY, values: { temp: 99 } });
    await publish(orgId, devId, { devID: devId, devType: 5, time: 1000, values: { temp: 98 } });
    const letters = await waitUntil(async () => {
      const found = (await deadLetters()).filter((l) => l.body.includes(devId));
      return found.length === 2 ? found : undefined;
    });
    for (const letter of letters)
      expect(letter.reason).toMatch(
        /^reading time \S+ is outside the window around its arrival at \S+ \(at most 7 days before, 5 minutes after\)$/,
      );
    const current = now - 30_000;
    await publish(orgId, devId, { devID: devId, devType: 5, time: current, values: { temp: 22 } });
    const device = await waitUntil(async () => {
      const found = await dynamoDevices.get(devId);
      return found?.lastSeen === current ? found : undefined;
    });
    expect(device.latest).toEqual({ temp: 22 });
    expect((await seriesItems(devId, 'raw')).map((item) => item.t)).toEqual([current]);
  });
});
