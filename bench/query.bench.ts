import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import type { TelemetryPoint } from '@argentum/functions/domain/telemetry/telemetry';
import { dynamoTelemetryStore, seriesKey } from '@argentum/functions/stores/telemetry-dynamodb';
import { devices } from '../infra/local/demo-data';
import type { Bench } from './types';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const RUNS = 10;

/**
 * A 30-day series of one-minute readings (43,200 points) as the sensor page asks for it
 * (getDeviceInfoDateRange over HTTP: auth, scope check, roll-ups, downsampling, JSON), against the
 * floor of reading the same raw items with plain DynamoDB Queries. Goal: the answer is not slower
 * than reading the raw items (the roll-ups make it read 720 items instead of 43,200).
 */
const queryBench: Bench = async ({ url, signIn }) => {
  const device = devices.find((d) => d.devType === 5 && d.orgID === 'org-demo');
  if (!device)
    return [{ name: 'Query: 30-day series', value: 0, unit: 'queries/s', skipped: 'no IEQ sensor' }];
  const end = Date.UTC(2021, 5, 1);
  const from = end - 30 * DAY;
  const points: TelemetryPoint[] = [];
  for (let t = from; t < end; t += MINUTE)
    points.push({ devId: device.devID, time: t, values: { temp: 22 + Math.sin(t / 3_600_000) } });
  const started = performance.now();
  const { failedDevices } = await dynamoTelemetryStore.write(points);
  if (failedDevices.size > 0) throw new Error('the series was not written');
  console.log(
    `  wrote ${points.length} readings with roll-ups in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const token = await signIn('owner@example.com');
  const ask = async () => {
    const response = await fetch(`${url}/api/dataQuery/getDeviceInfoDateRange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        devID: device.devID,
        sensorDataPoint: 'temp',
        cusDate: { startDate: from, endDate: end - 1 },
        orgId: 'org-demo',
      }),
    });
    const body = (await response.json()) as { deviceResponse?: unknown[] };
    if (response.status !== 200 || !body.deviceResponse) throw new Error(`query failed: ${response.status}`);
    return body.deviceResponse.length;
  };
  const rawQuery = async () => {
    let count = 0;
    let startKey: QueryCommandOutput['LastEvaluatedKey'];
    do {
      const page = await dynamo().send(
        new QueryCommand({
          TableName: config.telemetryTable,
          KeyConditionExpression: 'series = :s AND t BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':s': seriesKey(device.devID, 'raw'), ':from': from, ':to': end - 1 },
          ExclusiveStartKey: startKey,
        }),
      );
      count += page.Items?.length ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return count;
  };
  const rate = async (fn: () => Promise<number>) => {
    await fn(); // warm
    const t0 = performance.now();
    for (let i = 0; i < RUNS; i++) await fn();
    return RUNS / ((performance.now() - t0) / 1000);
  };
  const pointsAnswered = await ask();
  const itemsRead = await rawQuery();
  // The floor before and after, averaged (the machine's load drifts).
  const floorBefore = await rate(rawQuery);
  const answered = await rate(ask);
  const floorAfter = await rate(rawQuery);
  console.log(
    `  the answer holds ${pointsAnswered} points (hourly roll-ups); the raw Query reads ${itemsRead} items`,
  );
  return [
    {
      name: 'Query: 30-day 1-minute series (getDeviceInfoDateRange)',
      value: answered,
      unit: 'queries/s',
      floor: (floorBefore + floorAfter) / 2,
      goal: { min: 1 },
    },
  ];
};

export default queryBench;
