import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { basicIngestTopic, topics } from '@argentum/contracts/messaging';
import type { ExportAnswer } from '@argentum/contracts';
import { connectLocalDevice } from '../../infra/local/device-credentials';
import { firehoseReadingArchive } from '../src/adapters/firehose-archive';
import { dynamo } from '../src/aws/dynamo';
import { s3 } from '../src/aws/s3';
import { config } from '../src/config';
import { archiveDay, archiveDayPrefix } from '../src/domain/telemetry/archive';
import { seriesKey } from '../src/stores/telemetry-dynamodb';
import { call, createOwnOrganization, createUser, signInAs, stack } from './support/api';
import { freshDevId, registerDevice, seriesItems } from './support/telemetry';

const DAY = 86_400_000;
const clients: { endAsync(force?: boolean): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
});

/** The lines of every archived object of an organization's day. */
async function archivedLines(orgId: string, day: string): Promise<Record<string, unknown>[]> {
  const listed = await s3().send(
    new ListObjectsV2Command({ Bucket: config.archiveBucket, Prefix: archiveDayPrefix(orgId, day) }),
  );
  const lines: Record<string, unknown>[] = [];
  for (const object of listed.Contents ?? []) {
    const got = await s3().send(new GetObjectCommand({ Bucket: config.archiveBucket, Key: object.Key }));
    const text = gunzipSync(
      await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    for (const line of text.toString('utf8').split('\n'))
      if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  return lines;
}

describe('the long-term archive of raw readings', () => {
  it('keeps every reading ingest accepted, by organization and day, and exports ranges the hot store no longer holds from it', async () => {
    const user = await createUser(0);
    const orgId = await createOwnOrganization(user.userId, 0, 'Archive Org');
    const devId = freshDevId();
    await registerDevice(devId, orgId);
    const device = await connectLocalDevice(`mqtt://127.0.0.1:${stack.mqttPort}`, stack.deviceSecret, {
      orgId,
      devId,
    });
    clients.push(device);

    // Readings of now: one through Basic Ingest, one on the plain topic. Ingest hands what it accepted
    // to the archive (Firehose: one request a batch), filed under the organization and the reading's day.
    const now = Date.now();
    const recent = Math.floor((now - 2 * 3_600_000) / 60_000) * 60_000;
    await device.publishAsync(
      basicIngestTopic(stack.telemetryRuleName, topics.sensorData(orgId, devId)),
      JSON.stringify({ devID: devId, devType: 5, time: recent, values: { temp: 22.5, hum: 45 } }),
      { qos: 1 },
    );
    await device.publishAsync(
      topics.sensorData(orgId, devId),
      JSON.stringify({ devID: devId, devType: 5, time: recent + 60_000, values: { temp: 23, hum: 45 } }),
      { qos: 1 },
    );
    // A reading ingest refuses (another device's id on this device's topic) is not archived.
    await device.publishAsync(
      topics.sensorData(orgId, devId),
      JSON.stringify({ devID: freshDevId(), devType: 5, time: recent + 30_000, values: { temp: 1 } }),
      { qos: 1 },
    );
    const days = [...new Set([archiveDay(recent), archiveDay(recent + 60_000)])];
    const archivedTimes = async () =>
      (await Promise.all(days.map((day) => archivedLines(orgId, day))))
        .flat()
        .map((l) => [l.devID, l.time, l.orgId, l.topicDevId])
        .sort((a, b) => Number(a[1]) - Number(b[1]));
    await expect.poll(archivedTimes).toEqual([
      [devId, recent, orgId, devId],
      [devId, recent + 60_000, orgId, devId],
    ]);

    // Readings of 60 and 59 days ago, archived back then: sent to the stream as ingest sends them.
    const old = Math.floor((now - 60 * DAY) / 60_000) * 60_000;
    const older = { devID: devId, devType: 5, time: old, values: { temp: 18.5, hum: 40 } };
    const newer = { devID: devId, devType: 5, time: old + DAY, values: { temp: 19.5, hum: 41 } };
    await firehoseReadingArchive.put(
      [older, newer].map((m) => JSON.stringify({ ...m, orgId, topicDevId: devId, receivedAt: m.time })),
    );
    await expect
      .poll(async () =>
        (await archivedLines(orgId, archiveDay(old))).map((l) => [l.devID, l.time, l.orgId, l.topicDevId]),
      )
      .toEqual([[devId, old, orgId, devId]]);
    await expect.poll(async () => (await archivedLines(orgId, archiveDay(old + DAY))).length).toBe(1);

    // The hot store let them expire (TTL): whatever ingest kept of them is gone.
    for (const item of await seriesItems(devId, 'raw'))
      await dynamo().send(
        new DeleteCommand({
          TableName: config.telemetryTable,
          Key: { series: seriesKey(devId, 'raw'), t: item.t },
        }),
      );

    const { accessToken } = await signInAs(user);
    const answer = await call<ExportAnswer & { data?: string }>(
      '/api/dataQuery/createExport',
      {
        kind: 'raw',
        format: 'json',
        devID: devId,
        cusDate: { startDate: old - DAY, endDate: old + 2 * DAY },
        timeZone: 'UTC',
      },
      { token: accessToken },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.rows).toBe(2);
    const rows = JSON.parse(answer.body.data ?? '[]') as Record<string, unknown>[];
    // Columns are named as the screens name the points, with their units ('Temperature (temp) [°C]').
    const value = (row: Record<string, unknown>, dp: string) =>
      Object.entries(row).find(
        ([column]) => column === dp || column.includes(`(${dp})`) || column.startsWith(`${dp} [`),
      )?.[1];
    // Times in the user's zone with its offset (UTC here).
    const inUtc = (time: number) => new Date(time).toISOString().replace('.000Z', '+00:00');
    expect(rows.map((r) => [r.time, value(r, 'temp'), value(r, 'hum')])).toEqual([
      [inUtc(old), 18.5, 40],
      [inUtc(old + DAY), 19.5, 41],
    ]);
  });
});
