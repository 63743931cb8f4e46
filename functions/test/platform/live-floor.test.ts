import { type LiveFloorMessage, liveFloorMessageSchema, topics } from '@argentum/contracts/messaging';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, signInAs, stack } from '../support/api';
import { dynamoDevices } from '../../src/stores/devices';
import { connectBrowser } from '../support/realtime';
import { deviceConnection } from '../support/control';
import { newDevices, newPlace, type Place } from './devices-fixtures';

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync()));
});

/** A browser's connection, as the web app makes it (a signed connection token for its client id). */
async function browser(token: string) {
  const client = await connectBrowser(token);
  clients.push(client);
  const received: { topic: string; message: LiveFloorMessage }[] = [];
  client.on('message', (topic, payload) =>
    received.push({ topic, message: liveFloorMessageSchema.parse(JSON.parse(payload.toString())) }),
  );
  // A refused subscription comes back as a SUBACK failure, which mqtt.js reports as an error.
  const subscribe = (filter: string) =>
    client.subscribeAsync(filter, { qos: 1 }).then(
      (granted) => granted.map((g) => g.qos),
      () => 'refused' as const,
    );
  return { received, subscribe };
}

/** Publishes readings as the devices themselves: the broker binds each connection to one device. */
async function device() {
  const connections = new Map<string, Promise<MqttClient>>();
  const connectionOf = (orgId: string, devID: string) => {
    const key = `${orgId}/${devID}`;
    let connection = connections.get(key);
    if (!connection) {
      connection = deviceConnection(orgId, devID).then((c) => {
        clients.push(c);
        return c;
      });
      connections.set(key, connection);
    }
    return connection;
  };
  return async (place: Place, devID: string, time: number, values: Record<string, number>) =>
    (await connectionOf(place.orgId, devID)).publishAsync(
      topics.sensorData(place.orgId, devID),
      JSON.stringify({ devID, devType: 5, time, values }),
      { qos: 1 },
    );
}

async function member(place: Place) {
  const user = await createUser({ [place.orgId]: 0 });
  return (await signInAs(user)).accessToken;
}

describe('runtime configuration', () => {
  it("serves /config.json with the local broker's WebSocket URL", async () => {
    const response = await fetch(`${stack.url}/config.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      region: 'us-east-1',
      userPoolId: expect.any(String),
      userPoolClientId: expect.any(String),
      realtimeUrl: `ws://127.0.0.1:${stack.mqttWsPort}/mqtt`,
    });
  });
});

describe('live floor topic', () => {
  it("brings a reading a device publishes to a browser watching its floor, and only that floor, with its points' times", async () => {
    const place = await newPlace('Live One');
    const [sensor, elsewhere] = await newDevices(place, [{ devType: 5 }, { devType: 5 }], place.floorId);
    if (!sensor || !elsewhere) throw new Error('no devices');
    await newDevices(place, [{ devType: 5 }], place.floor2Id);
    const watcher = await browser(await member(place));
    expect(await watcher.subscribe(topics.floorLive(place.orgId, place.floorId))).toEqual([1]);
    const publish = await device();
    const time = Date.now() - 1000;
    await publish(place, sensor.devID, time, { temp: 21.5, co2: 640 });

    // The reading's values, and the presence change the reading made (the device was never heard), as
    // of when the broker heard it: its time less its clock's offset (the reading was stamped 1 s before).
    await expect.poll(() => watcher.received.length).toBe(2);
    const clockOffset = (await dynamoDevices.get(sensor.devID))?.clockOffset ?? Number.NaN;
    const heard = time - clockOffset;
    expect(heard).toBeGreaterThanOrEqual(time + 1000);
    expect(watcher.received).toEqual(
      expect.arrayContaining([
        {
          topic: topics.floorLive(place.orgId, place.floorId),
          message: {
            floorId: place.floorId,
            updates: [
              {
                devID: sensor.devID,
                latest: { temp: 21.5, co2: 640 },
                latestAt: { temp: time, co2: time },
                lastSeen: time,
                clockOffset,
              },
            ],
          },
        },
        {
          topic: topics.floorLive(place.orgId, place.floorId),
          message: {
            floorId: place.floorId,
            updates: [
              {
                devID: sensor.devID,
                online: true,
                presence: { online: true, reason: 'reading', since: heard, at: heard, lastSeen: heard },
              },
            ],
          },
        },
      ]),
    );

    // An older reading of a point not heard since: the point's value with its own time, the device's
    // time unmoved (the page keys what it reads again on a point's time, not on the device's).
    await publish(place, sensor.devID, time - 500, { hum: 40 });
    await expect.poll(() => watcher.received.length).toBe(3);
    expect(watcher.received[2]).toEqual({
      topic: topics.floorLive(place.orgId, place.floorId),
      message: {
        floorId: place.floorId,
        updates: [
          {
            devID: sensor.devID,
            latest: { hum: 40 },
            latestAt: { hum: time - 500 },
            lastSeen: time,
            clockOffset,
          },
        ],
      },
    });
  });

  it("refuses a user of organization A B's topics, and never delivers B's messages to A", async () => {
    const placeA = await newPlace('Live A');
    const placeB = await newPlace('Live B');
    const [sensorA] = await newDevices(placeA, [{ devType: 5 }], placeA.floorId);
    const [sensorB] = await newDevices(placeB, [{ devType: 5 }], placeB.floorId);
    if (!sensorA || !sensorB) throw new Error('no devices');
    const alice = await browser(await member(placeA));
    const bob = await browser(await member(placeB));

    expect(await alice.subscribe(topics.floorLive(placeB.orgId, placeB.floorId))).toBe('refused');
    expect(await alice.subscribe(`${placeB.orgId}/live/+`)).toBe('refused');
    expect(await alice.subscribe('+/live/+')).toBe('refused');
    expect(await alice.subscribe('#')).toBe('refused');
    expect(await alice.subscribe(topics.notification(placeB.orgId))).toBe('refused');
    expect(await alice.subscribe(topics.commandStatus(placeB.orgId, '*'))).toBe('refused');
    expect(await alice.subscribe(`${placeA.orgId}/live/+`)).toEqual([1]);
    expect(await bob.subscribe(topics.floorLive(placeB.orgId, placeB.floorId))).toEqual([1]);

    const publish = await device();
    // Each reading: its values, and the presence change it made (the devices were never heard).
    await publish(placeB, sensorB.devID, Date.now(), { temp: 30 });
    await expect.poll(() => bob.received.length).toBe(2);
    await publish(placeA, sensorA.devID, Date.now(), { temp: 20 });
    await expect.poll(() => alice.received.length).toBe(2);

    const floorA = topics.floorLive(placeA.orgId, placeA.floorId);
    const floorB = topics.floorLive(placeB.orgId, placeB.floorId);
    expect(alice.received.map((r) => r.topic)).toEqual([floorA, floorA]);
    expect(alice.received.flatMap((r) => r.message.updates.map((u) => u.devID))).toEqual([
      sensorA.devID,
      sensorA.devID,
    ]);
    expect(bob.received.map((r) => r.topic)).toEqual([floorB, floorB]);
  });

  it('coalesces a burst of 500 readings on one floor into one message per ingest batch', async () => {
    const place = await newPlace('Live Burst');
    const sensors = await newDevices(
      place,
      Array.from({ length: 50 }, () => ({ devType: 5 })),
      place.floorId,
    );
    const watcher = await browser(await member(place));
    expect(await watcher.subscribe(topics.floorLive(place.orgId, place.floorId))).toEqual([1]);
    const publish = await device();
    const t0 = Date.now() - 60_000;
    // Ten rounds over the fifty devices; the last round carries each device's newest value.
    await Promise.all(
      Array.from({ length: 500 }, (_, i) => {
        const sensor = sensors[i % 50];
        if (!sensor) throw new Error('no sensor');
        return publish(place, sensor.devID, t0 + i, { temp: i });
      }),
    );

    const newestOf = () => {
      // Batches are ingested side by side: a device's newest value is the one read last.
      const seen = new Map<string, { lastSeen: number; temp: number }>();
      for (const { message } of watcher.received)
        for (const { devID, lastSeen, latest } of message.updates)
          if (latest && lastSeen !== undefined && (seen.get(devID)?.lastSeen ?? 0) < lastSeen)
            seen.set(devID, { lastSeen, temp: latest.temp ?? -1 });
      return new Map([...seen].map(([devID, { temp }]) => [devID, temp]));
    };
    await expect
      .poll(() => [...newestOf().values()].sort((a, b) => a - b))
      .toEqual(Array.from({ length: 50 }, (_, i) => 450 + i));
    // The rule delivers batches of up to 500 within a 1 s window: a handful of batches at most, and
    // each batch gives one message for the floor, a device in it at most once.
    // (Besides them, one presence message per floor and batch: these devices were never heard.)
    const readings = watcher.received.filter(({ message }) => message.updates.some((u) => u.latest));
    expect(readings.length).toBeGreaterThanOrEqual(1);
    expect(readings.length).toBeLessThanOrEqual(5);
    const presence = watcher.received.filter(({ message }) => message.updates.some((u) => u.presence));
    expect(presence.length).toBeLessThanOrEqual(5);
    for (const { message } of watcher.received) {
      const ids = message.updates.map((u) => u.devID);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
