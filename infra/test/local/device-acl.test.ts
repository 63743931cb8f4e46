import { randomUUID } from 'node:crypto';
import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { topics } from '@argentum/events';
import { connectLocalDevice, localDeviceCredential } from '../../local/device-credentials';
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

/** A browser of a member of both organizations, subscribed to everything under them. */
async function watcher(orgIds: string[]) {
  const member = await createUser(0, orgIds);
  const { accessToken } = await signIn(member.email, member.password);
  const client = track(await connectBrowser(accessToken));
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
      JSON.stringify({ devID, devType: 5, time: Date.UTC(2026, 2, 1, 8), values: { temp } });

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
    const admitted = await connect({ clientId: devId, username: devId, password: credential });
    expect(admitted.connected).toBe(true);
  });
});
