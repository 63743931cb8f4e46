import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { connectAsync } from 'mqtt';
import { topics } from '@argentum/events';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { devices } from '../infra/local/demo-data';
import type { Bench } from './types';

const POINTS = 5000;

/** Telemetry from devices over MQTT, through the IoT-rule runner into the telemetry store, counted at the end. */
const ingestBench: Bench = async ({ stack }) => {
  const sensors = devices.filter((d) => d.devType === 5 && d.orgID === 'org-demo');
  const client = await connectAsync(`mqtt://127.0.0.1:${stack.ports.mqtt}`, {
    username: 'device',
    password: stack.deviceSecret,
  });
  const base = Date.UTC(2020, 0, 1);
  const started = performance.now();
  for (let i = 0; i < POINTS; i++) {
    const device = sensors[i % sensors.length];
    if (!device) continue;
    client.publish(
      topics.sensorData(device.orgID, device.devID),
      JSON.stringify({
        devID: device.devID,
        devType: 5,
        time: base + i * 1000,
        values: { temp: 20 + (i % 7), hum: 40 },
      }),
    );
  }
  await client.endAsync();
  // Give the broker a moment to hand every message to the rule runner, then wait for ingest to finish.
  await new Promise((r) => setTimeout(r, 200));
  await stack.ingestDrained();
  const seconds = (performance.now() - started) / 1000;

  let stored = 0;
  for (const device of sensors) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(
        new ScanCommand({
          TableName: config.telemetryTable,
          FilterExpression: 'series = :s AND t < :end',
          ExpressionAttributeValues: { ':s': `${device.devID}#raw`, ':end': base + POINTS * 1000 },
          Select: 'COUNT',
          ExclusiveStartKey: startKey,
        }),
      );
      stored += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return [
    { name: 'Ingest: sustained rate', value: POINTS / seconds, unit: 'points/s', budget: { min: 5000 } },
    { name: 'Ingest: points lost', value: POINTS - stored, unit: 'points', budget: { max: 0 } },
  ];
};

export default ingestBench;
