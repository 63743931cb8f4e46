import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { basicIngestTopic, topics } from '@argentum/contracts/messaging';
import { connectLocalDevice } from '../../local/device-credentials';
import { stack } from '../../../functions/test/support/api';
import { freshDevId, registerDevice, seriesItems } from '../../../functions/test/support/telemetry';

/**
 * Basic Ingest as IoT Core has it: a device publishes straight to the telemetry rule on
 * `$aws/rules/{rule}/{org}/sensordata/{dev}`, only its own, only to that rule; the rule sees the topic
 * without the prefix.
 */
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
});
const device = async (orgId: string, devId: string) => {
  const client = await connectLocalDevice(`mqtt://127.0.0.1:${stack.mqttPort}`, stack.deviceSecret, {
    orgId,
    devId,
  });
  clients.push(client);
  return client;
};

/** Publishes with QoS 1; answers whether the broker closed the connection instead (a refused publish). */
async function closedBy(client: MqttClient, topic: string, payload: string): Promise<boolean> {
  const closed = new Promise<boolean>((resolve) => client.once('close', () => resolve(true)));
  const acked = client.publishAsync(topic, payload, { qos: 1 }).then(
    () => false,
    () => true,
  );
  return Promise.race([closed, acked]);
}

describe('Basic Ingest on the local broker and rule runner', () => {
  it("stores a device's reading sent straight to the telemetry rule", async () => {
    const orgId = `bi-${randomUUID().slice(0, 8)}`;
    const devId = freshDevId();
    await registerDevice(devId, orgId);
    const client = await device(orgId, devId);
    const time = Date.now() - 60_000;
    const topic = basicIngestTopic(stack.telemetryRuleName, topics.sensorData(orgId, devId));
    expect(
      await closedBy(
        client,
        topic,
        JSON.stringify({ devID: devId, devType: 5, time, values: { temp: 21.5 } }),
      ),
    ).toBe(false);
    await expect
      .poll(async () => (await seriesItems(devId, 'raw')).map((i) => [i.t, i.v]))
      .toEqual([[time, { temp: 21.5 }]]);
  });

  it("refuses another device's or another rule's Basic Ingest topic, as the device policy does", async () => {
    const orgId = `bi-${randomUUID().slice(0, 8)}`;
    const own = freshDevId();
    const sibling = freshDevId();
    await registerDevice(own, orgId);
    await registerDevice(sibling, orgId);
    const reading = (devID: string) => JSON.stringify({ devID, devType: 5, values: { temp: 30 } });
    for (const topic of [
      basicIngestTopic(stack.telemetryRuleName, topics.sensorData(orgId, sibling)),
      basicIngestTopic('another_rule', topics.sensorData(orgId, own)),
    ]) {
      expect({ topic, closed: await closedBy(await device(orgId, own), topic, reading(own)) }).toEqual({
        topic,
        closed: true,
      });
    }
    expect(await seriesItems(sibling, 'raw')).toEqual([]);
  });
});
