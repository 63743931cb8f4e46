import { randomUUID } from 'node:crypto';
import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_CONNECT_INTERVAL_MS } from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import {
  connectLocalDevice,
  connectLocalOperator,
  LOCAL_OPERATOR_CLIENT_ID_PREFIX,
  LOCAL_OPERATOR_USERNAME,
  localDeviceCredential,
  localOperatorCredential,
} from '../../local/device-credentials';
import {
  IOT_BROKER_LIMITS,
  IOT_MAX_MESSAGE_BYTES,
  localIotArn,
  parseAuthorizerPolicy,
} from '../../local/iot-policy';
import { createUser, signIn, stack } from '../../../functions/test/support/api';
import { connectBrowser } from '../../../functions/test/support/realtime';
import {
  freshDevId,
  registerDevice,
  seriesItems,
  waitUntil,
} from '../../../functions/test/support/telemetry';

/**
 * The broker's device rule, which mirrors the IoT policy: a device connection is bound to one
 * organization and one device id; it publishes only its own telemetry and its organization's
 * confirmations, and subscribes only to its own command topic.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mqttUrl = () => `mqtt://127.0.0.1:${stack.mqttPort}`;
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
});
const track = (client: MqttClient) => {
  clients.push(client);
  return client;
};
const device = async (orgId: string, devId: string) =>
  track(await connectLocalDevice(mqttUrl(), stack.deviceSecret, { orgId, devId }));
/** One CONNECT as a device, with its own credential and id as client id; no retry when refused. */
const connectOnce = (orgId: string, devId: string) =>
  connectAsync(mqttUrl(), {
    clientId: devId,
    username: devId,
    password: localDeviceCredential(stack.deviceSecret, { orgId, devId }),
    reconnectPeriod: 0,
    protocolVersion: 4,
    connectTimeout: 5_000,
  }).then(track);

/**
 * An operator's connection (no page may receive devices' words): what the broker routes under the
 * organizations, devices' own publishes included.
 */
const operator = async () => track(await connectLocalOperator(mqttUrl(), stack.deviceSecret));

/** An operator's connection subscribed to everything under the organizations. */
async function watcher(orgIds: string[]) {
  const client = await operator();
  const received: { topic: string; payload: string }[] = [];
  client.on('message', (topic, payload) => received.push({ topic, payload: payload.toString() }));
  for (const orgId of orgIds) await client.subscribeAsync(`${orgId}/#`);
  return received;
}

const scene = async () => {
  const suffix = randomUUID().slice(0, 8);
  const a = `acl-a-${suffix}`;
  const b = `acl-b-${suffix}`;
  const received = await watcher([a, b]);
  return { a, b, received };
};

/**
 * Publishes as `client`, acknowledged or refused (a refused publish closes the connection, as IoT Core
 * does); answers whether the connection was closed.
 */
async function attempt(client: MqttClient, topic: string, payload: string): Promise<boolean> {
  const closed = new Promise<boolean>((resolve) => client.once('close', () => resolve(true)));
  const acked = client.publishAsync(topic, payload, { qos: 1 }).then(
    () => false,
    () => true,
  );
  return Promise.race([closed, acked]);
}

describe('device connections are confined to their organization and id (broker ACL)', () => {
  it("refuses a device's telemetry to another organization or another device's topic, and its confirmations elsewhere", async () => {
    const { a, b, received } = await scene();
    const own = freshDevId();
    const sibling = freshDevId();
    const victim = freshDevId();
    await registerDevice(own, a);
    await registerDevice(sibling, a);
    await registerDevice(victim, b);
    const reading = (devID: string, temp: number) =>
      JSON.stringify({ devID, devType: 5, time: Date.now() - 60_000, values: { temp } });

    const forbidden = [
      { topic: topics.sensorData(b, victim), payload: reading(victim, 91) },
      { topic: topics.sensorData(a, sibling), payload: reading(sibling, 92) },
      {
        topic: topics.controlSuccess(b),
        payload: JSON.stringify({ action: 'success', devID: own, val: 93 }),
      },
    ];
    for (const message of forbidden) {
      const client = await device(a, own);
      expect({ topic: message.topic, closed: await attempt(client, message.topic, message.payload) }).toEqual(
        {
          topic: message.topic,
          closed: true,
        },
      );
    }

    // Its own topics work: its telemetry reaches subscribers and ingest, its confirmations the organization.
    const client = await device(a, own);
    expect(await attempt(client, topics.sensorData(a, own), reading(own, 21))).toBe(false);
    expect(await attempt(client, topics.controlFail(a), JSON.stringify({ action: 'fail', devID: own }))).toBe(
      false,
    );
    await waitUntil(async () => ((await seriesItems(own, 'raw')).length === 1 ? true : undefined));
    await waitUntil(async () => (received.some((m) => m.topic === topics.controlFail(a)) ? true : undefined));
    expect(received.map((m) => m.topic)).toEqual([topics.sensorData(a, own), topics.controlFail(a)]);
    // Ingest stored nothing for the devices the refused readings named.
    expect(await seriesItems(victim, 'raw')).toEqual([]);
    expect(await seriesItems(sibling, 'raw')).toEqual([]);
  });

  it("refuses subscriptions to another organization's or another device's commands, and delivers its own", async () => {
    const { a, b } = await scene();
    const own = freshDevId();
    const client = await device(a, own);
    for (const filter of [
      topics.control(b, own),
      topics.control(a, 'someone-else'),
      `${a}/controldata/+`,
      topics.controlSuccess(a),
      `${a}/#`,
      '#',
    ]) {
      await expect(client.subscribeAsync(filter), filter).rejects.toThrow(/Subscribe error/);
    }
    // Refused subscriptions keep the connection (SUBACK 128); its own command topic is granted.
    expect(client.connected).toBe(true);
    const granted = await client.subscribeAsync(topics.control(a, own), { qos: 1 });
    expect(granted[0]?.qos).toBe(1);
    const commands: string[] = [];
    client.on('message', (topic, payload) => commands.push(`${topic} ${payload.toString()}`));
    const api = new IoTDataPlaneClient({});
    await api.send(new PublishCommand({ topic: topics.control(b, own), payload: Buffer.from('{"n":1}') }));
    await api.send(
      new PublishCommand({ topic: topics.control(a, own), qos: 1, payload: Buffer.from('{"n":2}') }),
    );
    await waitUntil(async () => (commands.length > 0 ? true : undefined));
    expect(commands).toEqual([`${topics.control(a, own)} {"n":2}`]);
  });

  it('admits a device only with its own credential, as its own client id', async () => {
    const a = `acl-a-${randomUUID().slice(0, 8)}`;
    const devId = freshDevId();
    const connect = (options: { clientId: string; username: string; password: string }) =>
      connectAsync(mqttUrl(), { ...options, reconnectPeriod: 0, protocolVersion: 4 }).then(track);
    const credential = localDeviceCredential(stack.deviceSecret, { orgId: a, devId });
    // Another organization's name in front of the same proof; another device's id; another client id.
    const [, mac] = credential.split(':');
    await expect(connect({ clientId: devId, username: devId, password: `acl-b:${mac}` })).rejects.toThrow();
    await expect(connect({ clientId: 'other', username: 'other', password: credential })).rejects.toThrow();
    await expect(
      connect({ clientId: `${devId}-2`, username: devId, password: credential }),
    ).rejects.toThrow();
    // A credential for a reserved id (whose command topic would be the confirmations) is refused too.
    const success = localDeviceCredential(stack.deviceSecret, { orgId: a, devId: 'success' });
    await expect(connect({ clientId: 'success', username: 'success', password: success })).rejects.toThrow();
    // A second after the refused CONNECT under its id (IoT Core takes one a second per client id).
    await sleep(REALTIME_CONNECT_INTERVAL_MS);
    const admitted = await connect({ clientId: devId, username: devId, password: credential });
    expect(admitted.connected).toBe(true);
  });
});

describe("an operator's connection (IAM-authenticated on IoT Core)", () => {
  it('is admitted only with its credential, under an operator- client id; it watches, and publishes nothing', async () => {
    const connect = (clientId: string, password: string) =>
      connectAsync(mqttUrl(), {
        clientId,
        username: LOCAL_OPERATOR_USERNAME,
        password,
        reconnectPeriod: 0,
        protocolVersion: 4,
      }).then(track);
    const proof = localOperatorCredential(stack.deviceSecret);
    await expect(connect(`${LOCAL_OPERATOR_CLIENT_ID_PREFIX}x`, `${proof}x`)).rejects.toThrow(
      /Not authorized/,
    );
    // A device's id (or a page's) cannot be taken over by an operator.
    const devId = freshDevId();
    await expect(connect(devId, proof)).rejects.toThrow(/Not authorized/);
    const watching = await connect(`${LOCAL_OPERATOR_CLIENT_ID_PREFIX}${randomUUID()}`, proof);
    const a = `acl-a-${randomUUID().slice(0, 8)}`;
    const received: string[] = [];
    watching.on('message', (topic) => received.push(topic));
    await watching.subscribeAsync(`${a}/#`, { qos: 1 });
    const publisher = await device(a, devId);
    expect(await attempt(publisher, topics.controlSuccess(a), JSON.stringify({ devID: devId }))).toBe(false);
    await expect.poll(() => received).toEqual([topics.controlSuccess(a)]);
    expect(await attempt(watching, topics.control(a, devId), JSON.stringify({ cmnd: 54, val: 1 }))).toBe(
      true,
    );
  });
});

describe("the broker applies IoT Core's rules (each on its own)", () => {
  const arn = localIotArn;
  const doc = (statements: object[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });
  const allow = (Action: string | string[], Resource: string | string[]) => ({
    Effect: 'Allow',
    Action,
    Resource,
  });

  it('refuses an authorizer answer of more than 10 documents or a document over 2,048 characters', () => {
    const connect = doc([allow('iot:Connect', arn('client', 'web-x'))]);
    const padded = (length: number) => {
      const base = doc([
        allow('iot:Connect', arn('client', 'web-x')),
        allow('iot:Receive', arn('topic', 'p/')),
      ]);
      return base.replace('topic/p/', `topic/p/${'x'.repeat(length - base.length)}`);
    };
    expect(padded(2048)).toHaveLength(2048);
    expect('allows' in parseAuthorizerPolicy([padded(2048)])).toBe(true);
    expect(parseAuthorizerPolicy([padded(2049)])).toEqual({ refused: expect.stringContaining('2048') });
    expect('allows' in parseAuthorizerPolicy(Array.from({ length: 10 }, () => connect))).toBe(true);
    expect(parseAuthorizerPolicy(Array.from({ length: 11 }, () => connect))).toEqual({
      refused: expect.stringContaining('10'),
    });
    expect(parseAuthorizerPolicy([])).toEqual({ refused: expect.any(String) });
    expect(parseAuthorizerPolicy(['not json'])).toEqual({ refused: expect.any(String) });
  });

  it('checks client, topic and topicfilter resources apart, with IoT wildcards (* and ?; + and # literal)', () => {
    const policy = parseAuthorizerPolicy([
      doc([
        allow('iot:Connect', arn('client', 'web-*')),
        allow('iot:Subscribe', [arn('topicfilter', 'org-a/*'), arn('topicfilter', 'org-b/live/+')]),
        allow('iot:Receive', arn('topic', 'org-a/*')),
        allow('iot:Publish', arn('topic', 'org-?/up')),
        { Effect: 'Deny', Action: 'iot:*', Resource: arn('topic', 'org-a/secret') },
      ]),
    ]);
    if (!('allows' in policy)) throw new Error(policy.refused);
    expect(policy.allows('iot:Connect', arn('client', 'web-1234'))).toBe(true);
    expect(policy.allows('iot:Connect', arn('client', '00:1A:22:00:03:06'))).toBe(false);
    // A topic filter needs a topicfilter resource; a topic a topic resource.
    expect(policy.allows('iot:Subscribe', arn('topicfilter', 'org-a/#'))).toBe(true);
    expect(policy.allows('iot:Subscribe', arn('topicfilter', 'org-a/+/x'))).toBe(true);
    expect(policy.allows('iot:Subscribe', arn('topicfilter', 'org-c/#'))).toBe(false);
    expect(policy.allows('iot:Receive', arn('topicfilter', 'org-a/x'))).toBe(false);
    expect(policy.allows('iot:Receive', arn('topic', 'org-a/x'))).toBe(true);
    // `+` in a resource is the character itself, not an MQTT wildcard.
    expect(policy.allows('iot:Subscribe', arn('topicfilter', 'org-b/live/+'))).toBe(true);
    expect(policy.allows('iot:Subscribe', arn('topicfilter', 'org-b/live/floor-1'))).toBe(false);
    // `?` is one character; an explicit Deny wins; what nothing allows is denied.
    expect(policy.allows('iot:Publish', arn('topic', 'org-a/up'))).toBe(true);
    expect(policy.allows('iot:Publish', arn('topic', 'org-aa/up'))).toBe(false);
    expect(policy.allows('iot:Receive', arn('topic', 'org-a/secret'))).toBe(false);
    expect(policy.allows('iot:Publish', arn('topic', 'org-a/x'))).toBe(false);
  });

  it('takes messages of up to 128 KB and refuses larger ones, from a device and from the data plane', async () => {
    const { a, received } = await scene();
    const devId = freshDevId();
    const publisher = await device(a, devId);
    const body = (bytes: number) => {
      const base = JSON.stringify({ action: 'success', devID: devId, val: 1, pad: '' });
      return base.replace('"pad":""', `"pad":"${'x'.repeat(bytes - base.length)}"`);
    };
    expect(Buffer.byteLength(body(IOT_MAX_MESSAGE_BYTES))).toBe(128 * 1024);
    expect(await attempt(publisher, topics.controlSuccess(a), body(IOT_MAX_MESSAGE_BYTES))).toBe(false);
    await expect.poll(() => received.length).toBe(1);
    const again = await device(a, freshDevId());
    expect(await attempt(again, topics.controlSuccess(a), body(IOT_MAX_MESSAGE_BYTES + 1))).toBe(true);
    const plane = new IoTDataPlaneClient({});
    await expect(
      plane.send(
        new PublishCommand({
          topic: topics.controlSuccess(a),
          payload: Buffer.from(body(IOT_MAX_MESSAGE_BYTES + 1)),
        }),
      ),
    ).rejects.toThrow();
    await plane.send(
      new PublishCommand({ topic: topics.controlSuccess(a), payload: Buffer.from(body(100)) }),
    );
    await expect.poll(() => received.length).toBe(2);
    expect(received.map((r) => r.payload.length)).toEqual([IOT_MAX_MESSAGE_BYTES, 100]);
  });
});

describe("the broker applies IoT Core's protocol quotas (iot-policy.ts, IOT_BROKER_LIMITS)", () => {
  /** Whether the connection was closed by the time `operation` settled (or it never settled). */
  async function closes(client: MqttClient, operation: () => Promise<unknown>): Promise<boolean> {
    let onClose = () => {};
    const closed = new Promise<boolean>((resolve) => (onClose = () => resolve(true)));
    client.once('close', onClose);
    const done = operation().then(
      () => false,
      () => true,
    );
    const outcome = await Promise.race([closed, done]);
    client.off('close', onClose);
    return outcome;
  }

  /** A browser of a fresh organization, allowed to subscribe to its floors' live topics (`{org}/live/*`). */
  async function browserOf() {
    const org = `quota-${randomUUID().slice(0, 8)}`;
    const member = await createUser(0, [org]);
    const { accessToken } = await signIn(member.email, member.password);
    return { org, client: track(await connectBrowser(accessToken, { orgIds: [org] })) };
  }
  /** An operator's connection and a fresh organization: it receives devices' words, which no page may. */
  const operatorOf = async () => ({ org: `quota-${randomUUID().slice(0, 8)}`, client: await operator() });

  it('takes one CONNECT a second for a client id: a closer one is refused, the older connection stays', async () => {
    const org = `quota-${randomUUID().slice(0, 8)}`;
    const devId = freshDevId();
    const connect = () => connectOnce(org, devId);
    const first = await connect();
    await expect(connect()).rejects.toThrow();
    expect(first.connected).toBe(true);
    // A second later the same id connects, and takes over (the older connection is closed).
    await sleep(REALTIME_CONNECT_INTERVAL_MS);
    const closed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    const second = await connect();
    expect(second.connected).toBe(true);
    await closed;
  });

  it('refuses a client id over 128 bytes', async () => {
    const org = `quota-${randomUUID().slice(0, 8)}`;
    const connect = (devId: string) => connectOnce(org, devId);
    expect((await connect('d'.repeat(128))).connected).toBe(true);
    await expect(connect('d'.repeat(129))).rejects.toThrow(/Identifier rejected/);
  });

  it('closes a connection that publishes or subscribes with QoS 2', async () => {
    const org = `quota-${randomUUID().slice(0, 8)}`;
    const devId = freshDevId();
    const publisher = await device(org, devId);
    const reading = JSON.stringify({ devID: devId, devType: 5, time: Date.now(), values: { temp: 20 } });
    expect(
      await closes(publisher, () =>
        publisher.publishAsync(topics.sensorData(org, devId), reading, { qos: 2 }),
      ),
    ).toBe(true);
    const subscriber = await device(org, devId);
    expect(
      await closes(subscriber, () => subscriber.subscribeAsync(topics.control(org, devId), { qos: 2 })),
    ).toBe(true);
    const again = await device(org, devId);
    expect(await closes(again, () => again.subscribeAsync(topics.control(org, devId), { qos: 1 }))).toBe(
      false,
    );
  });

  it('closes a connection that names more than 8 filters in one SUBSCRIBE', async () => {
    const { org, client } = await browserOf();
    const filters = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `${org}/live/quota-${from + i}`);
    expect(await closes(client, () => client.subscribeAsync(filters(0, 8)))).toBe(false);
    expect(await closes(client, () => client.subscribeAsync(filters(8, 9)))).toBe(true);
  });

  it('closes a connection past 50 subscriptions; an unsubscription makes room', async () => {
    const { org, client } = await browserOf();
    const filter = (n: number) => `${org}/live/quota-${n}`;
    for (let n = 0; n < 50; n += 8) {
      const batch = Array.from({ length: Math.min(8, 50 - n) }, (_, i) => filter(n + i));
      expect(await closes(client, () => client.subscribeAsync(batch))).toBe(false);
    }
    // The same filter again is no new subscription; one less makes room for another.
    expect(await closes(client, () => client.subscribeAsync(filter(0)))).toBe(false);
    await client.unsubscribeAsync(filter(0));
    expect(await closes(client, () => client.subscribeAsync(filter(50)))).toBe(false);
    expect(await closes(client, () => client.subscribeAsync(filter(51)))).toBe(true);
  });

  it('closes a connection that subscribes to a filter over 256 bytes or 7 slashes', async () => {
    const { org, client } = await browserOf();
    expect(await closes(client, () => client.subscribeAsync(`${org}/live/c/d/e/f/g/#`))).toBe(false);
    expect(await closes(client, () => client.subscribeAsync(`${org}/live/c/d/e/f/g/h/#`))).toBe(true);
    const other = await browserOf();
    const long = `${other.org}/live/${'x'.repeat(256 - other.org.length - 5)}`;
    expect(await closes(other.client, () => other.client.subscribeAsync(long.slice(0, 256)))).toBe(false);
    expect(await closes(other.client, () => other.client.subscribeAsync(long))).toBe(true);
  });

  it('discards the publishes of a connection past 100 in a second, received and sent alike', async () => {
    const { org, client: watching } = await operatorOf();
    const received: string[] = [];
    watching.on('message', (_topic, payload) => received.push(payload.toString()));
    await watching.subscribeAsync(`${org}/controldata/#`);
    const [one, two] = [await device(org, freshDevId()), await device(org, freshDevId())];
    const confirmation = (from: string, n: number) => JSON.stringify({ from, n });
    const burst = (publisher: MqttClient, from: string, count: number, qos: 0 | 1 = 0) =>
      Promise.all(
        Array.from({ length: count }, (_, n) =>
          publisher.publishAsync(topics.controlSuccess(org), confirmation(from, n), { qos }),
        ),
      );
    /**
     * What the watching connection received of a burst, once it has `atLeast` of it: a marker published a second
     * after the last of those (the quota then counts afresh) arrives after all of the burst. Answers
     * once a second has passed since the marker too.
     */
    const settled = async (from: MqttClient, atLeast: number) => {
      await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(atLeast), { timeout: 10_000 });
      await sleep(1000);
      const marker = randomUUID();
      await from.publishAsync(topics.controlSuccess(org), marker, { qos: 1 });
      await vi.waitFor(() => expect(received).toContain(marker), { timeout: 10_000 });
      const burstReceived = received.splice(0).filter((payload) => payload !== marker);
      await sleep(1000);
      return burstReceived;
    };

    // Sent: one device's 150 in a burst, the last 50 acknowledged (QoS 1) but delivered to no one.
    await burst(one, 'one', 150, 1);
    expect(await settled(one, 100)).toEqual(Array.from({ length: 100 }, (_, n) => confirmation('one', n)));
    expect(one.connected).toBe(true);

    // Received: two devices' 60 each (each within its own quota) reach the watching connection 100 at most.
    await Promise.all([burst(one, 'one', 60), burst(two, 'two', 60)]);
    const delivered = await settled(two, 100);
    expect(delivered).toHaveLength(100);
    expect(watching.connected).toBe(true);
  });

  it('delays what a connection sends past 512 KiB in a second, in order, and loses none of it', async () => {
    const { org, client: watching } = await operatorOf();
    const received: { n: number; at: number }[] = [];
    watching.on('message', (_topic, payload) =>
      received.push({ n: (JSON.parse(payload.toString()) as { n: number }).n, at: Date.now() }),
    );
    await watching.subscribeAsync(`${org}/controldata/#`);
    const sender = await device(org, freshDevId());
    // 10 messages of 120 KiB: 1,200 KiB, more than twice a second's worth.
    const messages = Array.from({ length: 10 }, (_, n) => JSON.stringify({ n, pad: 'x'.repeat(120 * 1024) }));
    const topic = topics.controlSuccess(org);
    const start = Date.now();
    // Each acknowledged (QoS 1) once the broker has taken it in.
    const acknowledged = await Promise.all(
      messages.map((message) => sender.publishAsync(topic, message, { qos: 1 }).then(() => Date.now())),
    );
    await vi.waitFor(() => expect(received).toHaveLength(messages.length), { timeout: 15_000 });
    expect(received.map(({ n }) => n)).toEqual(messages.map((_, n) => n));
    // The last was taken in no sooner than the quota's rate allows for what came before it.
    const limit = IOT_BROKER_LIMITS.bytesPerSecondPerConnection;
    const bytes = messages.reduce(
      (sum, message) => sum + Buffer.byteLength(message) + Buffer.byteLength(topic),
      0,
    );
    expect(Math.max(...acknowledged) - start).toBeGreaterThanOrEqual(((bytes - limit) / limit) * 1000 - 5);
    expect(sender.connected).toBe(true);
  });

  it('delays what a connection receives past 512 KiB in a second, in order, without holding up the others', async () => {
    const [one, two] = [await browserOf(), await browserOf()];
    const received = new Map<MqttClient, { n: number; at: number }[]>([
      [one.client, []],
      [two.client, []],
    ]);
    for (const [client, list] of received)
      client.on('message', (_topic, payload) =>
        list.push({ n: (JSON.parse(payload.toString()) as { n: number }).n, at: Date.now() }),
      );
    await one.client.subscribeAsync(topics.notification(one.org));
    await two.client.subscribeAsync(topics.notification(two.org));
    const plane = new IoTDataPlaneClient({});
    const message = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(120 * 1024) });
    const publish = (topic: string, n: number) =>
      plane.send(new PublishCommand({ topic, payload: Buffer.from(message(n)) }));
    // 1,200 KiB for the first browser (no publishing connection is paced here: the data plane has
    // none), then one message for the second.
    const topic = topics.notification(one.org);
    const start = Date.now();
    for (let n = 0; n < 10; n++) await publish(topic, n);
    await publish(topics.notification(two.org), 0);
    await vi.waitFor(() => expect(received.get(one.client)).toHaveLength(10), { timeout: 15_000 });
    const first = received.get(one.client) ?? [];
    expect(first.map(({ n }) => n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const limit = IOT_BROKER_LIMITS.bytesPerSecondPerConnection;
    const bytes = 10 * (Buffer.byteLength(message(0)) + Buffer.byteLength(topic));
    expect((first.at(-1)?.at ?? 0) - start).toBeGreaterThanOrEqual(((bytes - limit) / limit) * 1000 - 5);
    // The second browser had its message long before the first had all of its own.
    expect(received.get(two.client)?.[0]?.at ?? Infinity).toBeLessThan(first.at(-1)?.at ?? 0);
  });

  it('refuses a data-plane Publish to a topic over the limits, or with QoS 2 (400 InvalidRequestException)', async () => {
    const plane = new IoTDataPlaneClient({});
    const publish = (topic: string, qos?: number) =>
      plane.send(
        new PublishCommand({ topic, payload: Buffer.from('{}'), ...(qos === undefined ? {} : { qos }) }),
      );
    const org = `quota-${randomUUID().slice(0, 8)}`;
    await publish(`${org}/b/c/d/e/f/g/h`);
    await publish(`$aws/rules/no_such_rule/${org}/b/c/d/e/f/g/h`);
    await publish(`${org}/${'x'.repeat(255 - org.length)}`);
    for (const [topic, qos] of [
      [`${org}/b/c/d/e/f/g/h/i`, undefined],
      [`${org}/${'x'.repeat(256 - org.length)}`, undefined],
      [`${org}/+/x`, undefined],
      [`${org}/x`, 2],
    ] as const)
      await expect(publish(topic, qos), `${topic} qos ${qos}`).rejects.toMatchObject({
        name: 'InvalidRequestException',
      });
  });
});
