import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AllDeviceDataAnswer,
  type ComfortGraphAnswer,
  DATE_RANGE_ORDER_TEXT,
  type DeviceRangeAnswer,
  EXPORT_PAGE_ROWS,
  INVALID_DATE_TEXT,
  MAX_POINTS_PER_SERIES,
  type MotionSensorAnswer,
  UNKNOWN_DEVICE_TEXT,
  type WeatherAnswer,
} from '@argentum/contracts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { keys } from '../src/stores/keys';
import { recordLatest } from '../src/stores/devices';
import { dynamoTelemetryStore, writeRawReadings } from '../src/stores/telemetry-dynamodb';
import type { TelemetryPoint } from '../src/domain/telemetry/telemetry';
import { call, createOwnOrganization, createUser, signIn } from './support/api';
import { freshDevId, registerDevice, waitUntil } from './support/telemetry';
import { daysAgo } from './support/recent';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The end of the data: today's midnight (UTC), so the last day is a whole day. */
const end = daysAgo(0);
const spikeTime = end - 5 * HOUR + 7 * MINUTE;
const temp = (t: number) => (t === spikeTime ? 45 : 22 + 2 * Math.sin(t / (6 * HOUR)));
const hum = (t: number) => 45 + 5 * Math.cos(t / (8 * HOUR));

let token: string;
let foreignToken: string;
let orgId: string;
const ieq = freshDevId();
const ieq2 = freshDevId();
const motion = freshDevId();
let pointsOfIeq = 0;

beforeAll(async () => {
  const owner = await createUser(0);
  orgId = await createOwnOrganization(owner.userId, 0, 'Telemetry Org');
  token = (await signIn(owner.email, owner.password)).accessToken;
  const outsider = await createUser(0);
  await createOwnOrganization(outsider.userId, 3, 'Elsewhere');
  foreignToken = (await signIn(outsider.email, outsider.password)).accessToken;

  await registerDevice(ieq, orgId);
  await registerDevice(ieq2, orgId);
  await registerDevice(motion, orgId, 4, ['mState']);
  // 30 days: every 10 minutes, then the last day every minute, with a one-minute spike in it.
  const points: TelemetryPoint[] = [];
  for (let t = end - 30 * DAY; t < end - DAY; t += 10 * MINUTE)
    points.push({ devId: ieq, time: t, values: { temp: temp(t), hum: hum(t) } });
  for (let t = end - DAY; t < end; t += MINUTE)
    points.push({ devId: ieq, time: t, values: { temp: temp(t), hum: hum(t) } });
  pointsOfIeq = points.length;
  for (let t = end - 2 * DAY; t < end; t += 30 * MINUTE)
    points.push({ devId: ieq2, time: t, values: { temp: 21, hum: 41 } });
  // Occupied 08:00-17:59 UTC, sampled every 30 minutes, for 10 days.
  for (let t = end - 10 * DAY; t < end; t += 30 * MINUTE) {
    const hour = new Date(t).getUTCHours();
    points.push({ devId: motion, time: t, values: { mState: hour >= 8 && hour < 18 ? 1 : 0 } });
  }
  // Raw readings as ingest writes them; the roll-ups follow from the table's stream.
  expect((await writeRawReadings(points)).failedDevices.size).toBe(0);
  await recordLatest(ieq, end - MINUTE, { temp: 22.5, hum: 44 });
  // A newer reading of another point only: the temperature's latest value keeps its own time.
  await recordLatest(ieq, end - MINUTE / 2, { lux: 300 });
  const rolledUp = async (devId: string, from: number, readings: number) => {
    const hours = await dynamoTelemetryStore.readBuckets(devId, 'hour', from, end, 2000);
    return hours.items.reduce((n, b) => n + (Object.values(b.stats)[0]?.count ?? 0), 0) === readings;
  };
  await waitUntil(
    async () =>
      (await rolledUp(ieq, end - 30 * DAY, pointsOfIeq)) &&
      (await rolledUp(ieq2, end - 2 * DAY, 96)) &&
      (await rolledUp(motion, end - 10 * DAY, 480))
        ? true
        : undefined,
    200_000,
  );
}, 240_000);

const range = (from: number, to: number) => ({ startDate: new Date(from).toISOString(), endDate: to });
const deviceRange = (body: Record<string, unknown>, as = token) =>
  call<DeviceRangeAnswer>(
    '/api/dataQuery/getDeviceInfoDateRange',
    { sensorDataPoint: 'temp', orgId, ...body },
    { token: as },
  );

describe('getDeviceInfoDateRange', () => {
  it('answers a day of minutes as at most 1,000 raw points that keep a one-minute spike, and the latest value at its time', async () => {
    const result = await deviceRange({ devID: ieq, cusDate: range(end - DAY, end - 1) });
    expect(result.status).toBe(200);
    expect(result.body.resolution).toBe('raw');
    expect(result.body.deviceResponse.length).toBeLessThanOrEqual(MAX_POINTS_PER_SERIES);
    expect(result.body.deviceResponse.length).toBeGreaterThan(900);
    expect(result.body.deviceResponse).toContainEqual({ x: spikeTime, y: 45 });
    expect(result.body.latestVal).toEqual({ value: 22.5, time: end - MINUTE });
  });

  it('answers 30 days from hourly roll-ups (mean, min, max) where the one-minute spike is the maximum of its hour', async () => {
    const result = await deviceRange({ devID: ieq, cusDate: range(end - 30 * DAY, end - 1) });
    expect(result.status).toBe(200);
    expect(result.body.resolution).toBe('hour');
    const points = result.body.deviceResponse;
    expect(points).toHaveLength(720);
    const hourStart = Math.floor(spikeTime / HOUR) * HOUR;
    const spikeHour = points.find((p) => p.x === hourStart);
    expect(spikeHour?.max).toBe(45);
    // Its mean is that of its 60 readings, the spike among them (whatever the day puts the curve at).
    const readings = Array.from({ length: 60 }, (_, i) => temp(hourStart + i * MINUTE));
    expect(spikeHour?.y).toBeCloseTo(readings.reduce((sum, value) => sum + value, 0) / 60, 6);
    expect(spikeHour?.y).toBeLessThan(25);
    expect(Math.max(...points.map((p) => p.max ?? 0))).toBe(45);
    for (const p of points) expect(p.min).toBeLessThanOrEqual(p.y);
  });

  it('answers an empty series and no latest value for a data point without readings', async () => {
    const result = await deviceRange({ devID: ieq, sensorDataPoint: 'co2', cusDate: range(end - DAY, end) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ deviceResponse: [], latestVal: null, resolution: 'raw' });
  });

  it("answers a device of another organization exactly as an unknown device: 404 'Device not found'", async () => {
    const foreign = await deviceRange({ devID: ieq, cusDate: range(end - DAY, end) }, foreignToken);
    const unknown = await deviceRange({ devID: freshDevId(), cusDate: range(end - DAY, end) });
    const wrongOrg = await deviceRange({ devID: ieq, orgId: randomUUID(), cusDate: range(end - DAY, end) });
    for (const result of [foreign, unknown, wrongOrg]) {
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ message: UNKNOWN_DEVICE_TEXT });
    }
  });

  it('refuses dates that are not dates, or in the wrong order, with 400 and their texts', async () => {
    const bad = await deviceRange({ devID: ieq, cusDate: { startDate: 'soon', endDate: end } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: INVALID_DATE_TEXT });
    const reversed = await deviceRange({ devID: ieq, cusDate: range(end, end - DAY) });
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ message: DATE_RANGE_ORDER_TEXT });
  });

  it('refuses dates no calendar holds (huge numbers, negative) with 400 on every query, not a 500', async () => {
    const huge: [string | number, string | number][] = [
      [1e300, 1e300],
      [2 ** 53 + 2, 2 ** 53 + 2],
      ['9'.repeat(40), '9'.repeat(40)],
      [8.64e15 + 1, 8.64e15 + 1],
      [-1e15, -1e15 + 1],
    ];
    for (const [startDate, endDate] of huge) {
      const cusDate = { startDate, endDate };
      const answers = await Promise.all([
        deviceRange({ devID: ieq, cusDate }),
        call('/api/dataQuery/getAllDeviceData', { device: ieq, param: 'temp', cusDate, orgId }, { token }),
        call('/api/dataQuery/getComfortGraphInfo', { device: ieq, param: 'temp', cusDate, orgId }, { token }),
        call(
          '/api/dataQuery/getMotionSensorData',
          { deviceIds: [motion], dateRange: cusDate, orgId },
          { token },
        ),
      ]);
      for (const answer of answers) {
        expect(answer.status, JSON.stringify({ cusDate, body: answer.body })).toBe(400);
        expect(answer.body).toEqual({ message: INVALID_DATE_TEXT });
      }
    }
  });
});

describe('getComfortGraphInfo', () => {
  it('pairs humidity (y) with temperature (x), at most 1,000 pairs', async () => {
    const result = await call<ComfortGraphAnswer>(
      '/api/dataQuery/getComfortGraphInfo',
      { device: ieq, param: 'temp', cusDate: range(end - DAY, end - 1), orgId },
      { token },
    );
    expect(result.status).toBe(200);
    expect(result.body.param2).toBe('hum');
    expect(result.body.responseData).toHaveLength(MAX_POINTS_PER_SERIES);
    const first = end - DAY;
    expect(result.body.responseData[0]).toEqual({ x: temp(first), y: hum(first) });
  });
});

describe('getMotionSensorData', () => {
  it('answers occupancy per day for the last 7 days of the range, per sensor and on average', async () => {
    const result = await call<MotionSensorAnswer>(
      '/api/dataQuery/getMotionSensorData',
      { deviceIds: [motion], dateRange: range(end - 10 * DAY, end - 1), orgId },
      { token },
    );
    expect(result.status).toBe(200);
    const days = result.body.deviceResponse[0]?.days ?? [];
    expect(days.map((d) => d.day)).toEqual(
      Array.from({ length: 7 }, (_, i) => new Date(end - (7 - i) * DAY).toISOString().slice(0, 10)),
    );
    for (const day of days) expect(day.occupied).toBeCloseTo(10 / 24);
    expect(result.body.utilizationResponse).toEqual([
      { devID: motion, utilization: expect.closeTo(10 / 24) },
    ]);
    expect(result.body.avgQuerySum).toEqual({ avg: expect.closeTo(10 / 24), dayCount: 7 });
  });

  it('answers 404 when one of the sensors is not the caller’s', async () => {
    const result = await call(
      '/api/dataQuery/getMotionSensorData',
      { deviceIds: [motion], dateRange: range(end - DAY, end), orgId },
      { token: foreignToken },
    );
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: UNKNOWN_DEVICE_TEXT });
  });
});

describe('getAllDeviceData', () => {
  it('pages raw readings of several devices, 5,000 rows a page, each reading once', async () => {
    const rows: AllDeviceDataAnswer['rows'] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await call<AllDeviceDataAnswer>(
        '/api/dataQuery/getAllDeviceData',
        {
          device: [ieq, ieq2],
          param: ['temp'],
          cusDate: range(end - 30 * DAY, end),
          fetchDatatype: 'raw',
          orgId,
          ...(cursor ? { cursor } : {}),
        },
        { token },
      );
      expect(result.status).toBe(200);
      expect(result.body.resolution).toBe('raw');
      expect(result.body.params).toEqual(['temp']);
      expect(result.body.rows.length).toBeLessThanOrEqual(EXPORT_PAGE_ROWS);
      rows.push(...result.body.rows);
      cursor = result.body.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(rows).toHaveLength(pointsOfIeq + 96);
    expect(new Set(rows.map((r) => `${r.devID}@${r.time}`)).size).toBe(rows.length);
    expect(rows.find((r) => r.time === spikeTime)).toEqual({
      devID: ieq,
      time: spikeTime,
      values: { temp: 45 },
    });
  });

  it('answers hourly averages otherwise', async () => {
    const result = await call<AllDeviceDataAnswer>(
      '/api/dataQuery/getAllDeviceData',
      { device: ieq2, cusDate: range(end - DAY, end - 1), orgId },
      { token },
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ resolution: 'hour', params: ['hum', 'temp'], nextCursor: null });
    expect(result.body.rows).toHaveLength(24);
    expect(result.body.rows[0]).toEqual({ devID: ieq2, time: end - DAY, values: { temp: 21, hum: 41 } });
  });
});

describe('/api/weather', () => {
  it("answers the configured city's outdoor pressure in kPa (the provider's hPa / 10)", async () => {
    const result = await call<WeatherAnswer>('/api/weather', {}, { token, method: 'GET' });
    expect(result.status).toBe(200);
    expect(result.body.city).toBe('Toronto');
    expect(result.body.pressureKpa).toBeGreaterThanOrEqual(100.9);
    expect(result.body.pressureKpa).toBeLessThanOrEqual(101.7);
    expect(typeof result.body.time).toBe('number');
    // The reading is shared with the function's other instances: its role may write that one item.
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.weather('Toronto') }),
    );
    expect(Item).toMatchObject({ entity: 'weather', pressureHpa: expect.any(Number) });
  });
});
