import { PublishCommand, IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { topics } from '@argentum/events';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { keys } from '@argentum/functions/stores/keys';
import { seriesKey } from '@argentum/functions/stores/telemetry-dynamodb';
import { readMailbox } from '../../local/ses-capture';
import { call, createUser, nextSecond, signIn, stack } from '../../../functions/test/support/api';

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync()));
});

async function device(): Promise<MqttClient> {
  const client = await connectAsync(`mqtt://127.0.0.1:${stack.mqttPort}`, {
    username: 'device',
    password: stack.deviceSecret,
    reconnectPeriod: 0,
  });
  clients.push(client);
  return client;
}

async function browser(token: string): Promise<MqttClient> {
  const client = await connectAsync(`ws://127.0.0.1:${stack.mqttWsPort}/mqtt`, {
    username: 'browser',
    password: token,
    reconnectPeriod: 0,
    protocolVersion: 4,
  });
  clients.push(client);
  return client;
}

const waitUntil = async <T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('telemetry ingest (IoT rule -> ingest handler)', () => {
  it('stores a reading as raw point and hourly roll-up, and records the device latest values', async () => {
    const devId = '00:1A:22:01:05:03'; // IEQLounge, Demo Org
    const time = Date.UTC(2026, 0, 5, 10, 17);
    const publisher = await device();
    await publisher.publishAsync(
      topics.sensorData('org-demo', devId),
      JSON.stringify({ devID: devId, devType: 5, time, values: { temp: 23.5, co2: 640 } }),
    );
    const raw = await waitUntil(async () => {
      const { Item } = await dynamo().send(
        new GetCommand({
          TableName: config.telemetryTable,
          Key: { series: seriesKey(devId, 'raw'), t: time },
        }),
      );
      return Item;
    });
    expect(raw.v).toEqual({ temp: 23.5, co2: 640 });
    const hour = await dynamo().send(
      new GetCommand({
        TableName: config.telemetryTable,
        Key: { series: seriesKey(devId, 'hour'), t: Date.UTC(2026, 0, 5, 10) },
      }),
    );
    expect(hour.Item).toMatchObject({ sum_temp: 23.5, count_temp: 1, sum_co2: 640, count_co2: 1 });
  });

  it('drops readings for a device of another organization, and payloads that are not readings', async () => {
    const foreign = '00:1B:33:00:05:03'; // IEQStorage belongs to Other Org
    const time = Date.UTC(2026, 0, 6, 9, 0);
    const publisher = await device();
    await publisher.publishAsync(
      topics.sensorData('org-demo', foreign),
      JSON.stringify({ devID: foreign, devType: 5, time, values: { temp: 99 } }),
    );
    await publisher.publishAsync(topics.sensorData('org-demo', 'x'), 'not json');
    await publisher.publishAsync(
      topics.sensorData('org-demo', 'x'),
      JSON.stringify({ devID: 'x', values: 'nope' }),
    );
    // A later valid reading proves the earlier ones were processed (one broker, in order).
    const marker = Date.UTC(2026, 0, 6, 9, 5);
    const own = '00:1A:22:01:04:02';
    await publisher.publishAsync(
      topics.sensorData('org-demo', own),
      JSON.stringify({ devID: own, devType: 4, time: marker, values: { mState: 1 } }),
    );
    await waitUntil(async () => {
      const { Item } = await dynamo().send(
        new GetCommand({
          TableName: config.telemetryTable,
          Key: { series: seriesKey(own, 'raw'), t: marker },
        }),
      );
      return Item;
    });
    await new Promise((r) => setTimeout(r, 300));
    const stored = await dynamo().send(
      new QueryCommand({
        TableName: config.telemetryTable,
        KeyConditionExpression: 'series = :s AND t = :t',
        ExpressionAttributeValues: { ':s': seriesKey(foreign, 'raw'), ':t': time },
      }),
    );
    expect(stored.Items).toEqual([]);
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.device(foreign) }),
    );
    expect(Item?.latest?.temp).not.toBe(99);
  });
});

describe('real-time access (the IoT custom authorizer guards the broker)', () => {
  it('lets a signed-in browser receive its organization topics and refuses other organizations', async () => {
    const { accessToken } = await signIn('viewer@example.com');
    const client = await browser(accessToken);
    const granted = await client.subscribeAsync(topics.controlSuccess('org-demo'));
    expect(granted[0]?.qos).toBe(0);
    // Refused subscriptions come back as SUBACK failures (128), which mqtt.js reports as errors.
    await expect(client.subscribeAsync(topics.controlSuccess('org-other'))).rejects.toThrow(
      /Subscribe error/,
    );
    await expect(client.subscribeAsync('+/controldata/success')).rejects.toThrow(/Subscribe error/);
    expect(client.connected).toBe(true);

    const received = new Promise<string>((resolve) =>
      client.on('message', (_t, payload) => resolve(payload.toString())),
    );
    const publisher = await device();
    await publisher.publishAsync(
      topics.controlSuccess('org-demo'),
      JSON.stringify({ action: 'success', devID: 'd1', val: 1 }),
    );
    expect(JSON.parse(await received)).toMatchObject({ action: 'success', devID: 'd1' });
  });

  it('refuses a connection without a valid access token, and a device with a wrong secret', async () => {
    await expect(browser('not-a-token')).rejects.toThrow();
    await expect(
      connectAsync(`mqtt://127.0.0.1:${stack.mqttPort}`, {
        username: 'device',
        password: 'wrong',
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow();
  });

  it('refuses the access token of a session its user has signed out of', async () => {
    const user = await createUser(0, ['org-demo']);
    const session = await signIn(user.email, user.password);
    expect((await browser(session.accessToken)).connected).toBe(true);
    await nextSecond();
    expect((await call('/api/userLogout', {}, { cookie: session.cookie })).status).toBe(200);
    await expect(browser(session.accessToken)).rejects.toThrow();
  });

  it('does not let a browser publish commands or fake device confirmations', async () => {
    const { accessToken } = await signIn('owner@example.com');
    const client = await browser(accessToken);
    const watcher = await device();
    await watcher.subscribeAsync(topics.control('org-demo', 'd1'));
    const delivered: string[] = [];
    watcher.on('message', (_t, payload) => delivered.push(payload.toString()));
    await client
      .publishAsync(topics.control('org-demo', 'd1'), JSON.stringify({ cmnd: 54, val: 1 }))
      .catch(() => undefined);
    // A command sent the legitimate way (the API's IoT data-plane publish) does arrive.
    await new IoTDataPlaneClient({}).send(
      new PublishCommand({ topic: topics.control('org-demo', 'd1'), payload: Buffer.from('{"from":"api"}') }),
    );
    await waitUntil(async () => (delivered.length > 0 ? true : undefined));
    expect(delivered).toEqual(['{"from":"api"}']);
  });
});

describe('AWS service adapters against their local stand-ins', () => {
  it('IoT data-plane Publish (what device commands use) reaches subscribers of the topic', async () => {
    const watcher = await device();
    await watcher.subscribeAsync(topics.control('org-demo', 'adapter-check'));
    const received = new Promise<string>((resolve) =>
      watcher.on('message', (_t, p) => resolve(p.toString())),
    );
    await new IoTDataPlaneClient({}).send(
      new PublishCommand({
        topic: topics.control('org-demo', 'adapter-check'),
        qos: 1,
        payload: Buffer.from('{"cmnd":54}'),
      }),
    );
    expect(JSON.parse(await received)).toEqual({ cmnd: 54 });
  });

  it('SES SendEmail is captured where a developer can read it', async () => {
    const subject = `Check ${Date.now()}`;
    await new SESClient({}).send(
      new SendEmailCommand({
        Source: config.mailFrom,
        Destination: { ToAddresses: ['someone@example.com'] },
        Message: {
          Subject: { Data: subject },
          Body: { Html: { Data: '<p>Hello</p>' }, Text: { Data: 'Hello' } },
        },
      }),
    );
    const mail = readMailbox(stack.mailDir).find((m) => m.subject === subject);
    expect(mail).toMatchObject({ to: ['someone@example.com'], html: '<p>Hello</p>', text: 'Hello' });
    const viaApp = (await (await fetch(`${stack.url}/_local/mail`)).json()) as { subject: string }[];
    expect(viaApp.some((m) => m.subject === subject)).toBe(true);
  });
});
