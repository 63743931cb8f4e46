import { randomUUID } from 'node:crypto';
import * as XLSX from '@e965/xlsx';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { ExportAnswer, SensorDevicesAnswer } from '@argentum/contracts';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { DEVICE_NOT_FOUND_TEXT } from '../src/domain/export/export';
import type { TelemetryPoint } from '../src/domain/telemetry/telemetry';
import { type Device, deviceItem } from '../src/stores/devices';
import { dynamoTelemetryStore } from '../src/stores/telemetry-dynamodb';
import { call, createOwnOrganization, createUser, signInAs } from './support/api';
import { hoursAgo } from './support/recent';

const hyperlink = '=HYPERLINK("http://evil.example","Click")';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A device written straight to the platform table, as registration would leave it. */
async function putDevice(orgId: string, devName: string): Promise<Device> {
  const device: Device = {
    devID: `T:${randomUUID().slice(0, 12)}`,
    devName,
    devType: 5,
    orgID: orgId,
    onFloor: false,
    dataPoints: [
      { dp: 'temp', dn: 'Temperature' },
      { dp: 'hum', dn: hyperlink },
    ],
    properties: {},
    updatedAt: new Date().toISOString(),
  };
  await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: deviceItem(device) }));
  return device;
}

/** One reading a minute over [start, start + minutes). */
async function writeMinutes(devId: string, start: number, minutes: number): Promise<void> {
  const points: TelemetryPoint[] = [];
  for (let i = 0; i < minutes; i++)
    points.push({ devId, time: start + i * MINUTE, values: { temp: 20 + (i % 60) / 10, hum: 45 } });
  await dynamoTelemetryStore.write(points);
}

async function setUp() {
  const user = await createUser(0);
  const orgId = await createOwnOrganization(user.userId, 0, 'Export Org');
  const device = await putDevice(orgId, hyperlink);
  const other = await putDevice(orgId, 'IEQSecond');
  const start = hoursAgo(3);
  await writeMinutes(device.devID, start, 120);
  const { accessToken } = await signInAs(user);
  return { user, orgId, device, other, start, token: accessToken };
}

const exportOf = (token: string, body: Record<string, unknown>) =>
  call<ExportAnswer & { message?: string }>('/api/dataQuery/createExport', body, { token });

describe('sensor devices and exports', () => {
  it('opens a sensor of the caller’s organization, and answers a foreign device like an unknown one', async () => {
    const { device, other, token } = await setUp();
    const own = await call<SensorDevicesAnswer>(
      '/api/dataQuery/getSensorDevices',
      { devID: device.devID },
      { token },
    );
    expect(own.status).toBe(200);
    expect(own.body.device).toMatchObject({ devID: device.devID, devType: 5 });
    expect(own.body.orgDevices.map((d) => d.devID)).toEqual([other.devID]);
    expect(own.body.allDeviceExport).toBe(false);

    const stranger = await createUser(0);
    await createOwnOrganization(stranger.userId, 0, 'Elsewhere');
    const { accessToken } = await signInAs(stranger);
    const foreign = await call(
      '/api/dataQuery/getSensorDevices',
      { devID: device.devID },
      { token: accessToken },
    );
    const unknown = await call(
      '/api/dataQuery/getSensorDevices',
      { devID: 'NO:SUCH:DEVICE' },
      { token: accessToken },
    );
    expect(foreign).toMatchObject({ status: 404, body: { message: DEVICE_NOT_FOUND_TEXT } });
    expect(unknown).toMatchObject({ status: 404, body: { message: DEVICE_NOT_FOUND_TEXT } });
    const foreignExport = await exportOf(accessToken, {
      kind: 'raw',
      format: 'csv',
      devID: device.devID,
      cusDate: { startDate: 0, endDate: HOUR },
    });
    expect(foreignExport).toMatchObject({ status: 404, body: { message: DEVICE_NOT_FOUND_TEXT } });
  });

  it('exports raw and average data as csv, json and xls that parse back, formulas kept as text', async () => {
    const { device, start, token } = await setUp();
    const cusDate = { startDate: start, endDate: start + 2 * HOUR };
    // The user's zone (India: +05:30 all year): times are written in it, with the offset.
    const base = { devID: device.devID, cusDate, timeZone: 'Asia/Kolkata' };
    const inKolkata = (time: number) => {
      const wall = new Date(time + 330 * MINUTE).toISOString();
      return `${wall.slice(0, 19)}+05:30`;
    };

    const csv = await exportOf(token, { ...base, kind: 'raw', format: 'csv' });
    expect(csv.status).toBe(200);
    expect(csv.body).toMatchObject({ format: 'csv', encoding: 'utf8', rows: 120 });
    expect(csv.body.fileName).toMatch(
      /^_HYPERLINK_http_evil_example_Click__RawData_\d\d-\d\d-\d{4}_to_\d\d-\d\d-\d{4}\.csv$/,
    );
    const lines = (csv.body.data ?? '')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(121);
    // Units as the screens show them.
    expect(lines[0]).toBe(
      `time,devID,device,Temperature (temp) [°C],"'${hyperlink.replaceAll('"', '""')} (hum) [%]"`,
    );
    expect(lines[1]).toBe(`${inKolkata(start)},${device.devID},"'${hyperlink.replaceAll('"', '""')}",20,45`);

    const json = await exportOf(token, { ...base, kind: 'average', format: 'json' });
    expect(json.status).toBe(200);
    const rows = JSON.parse(json.body.data ?? '') as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      time: inKolkata(start),
      devID: device.devID,
      device: `'${hyperlink}`,
      [`'${hyperlink} (hum) [%]`]: 45,
    });
    // The screen's rounding: one decimal (the hour's mean is 22.95).
    const mean = Number(rows[0]?.['Temperature (temp) [°C]']);
    expect([22.9, 23]).toContain(mean);

    const xls = await exportOf(token, { ...base, kind: 'raw', format: 'xls' });
    expect(xls.status).toBe(200);
    expect(xls.body).toMatchObject({ encoding: 'base64', contentType: 'application/vnd.ms-excel' });
    expect(xls.body.fileName.endsWith('.xls')).toBe(true);
    const bytes = Buffer.from(xls.body.data ?? '', 'base64');
    expect([...bytes.subarray(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
    const sheet = XLSX.read(bytes, { type: 'buffer', cellNF: true }).Sheets.Data;
    if (!sheet) throw new Error('no Data sheet');
    // A real date cell, showing the wall-clock time in the user's zone.
    expect(sheet.A2).toMatchObject({ t: 'n', z: 'yyyy-mm-dd hh:mm:ss' });
    expect((sheet.A2 as XLSX.CellObject).w).toBe(inKolkata(start).slice(0, 19).replace('T', ' '));
    expect(sheet.C2).toMatchObject({ t: 's', v: `'${hyperlink}` });
    expect((sheet.C2 as XLSX.CellObject).f).toBeUndefined();
    expect(sheet.D2).toMatchObject({ t: 'n', v: 20 });
    expect(XLSX.utils.sheet_to_json(sheet)).toHaveLength(120);
  });

  it('refuses an unknown format with the documented text, and a range over 31 days', async () => {
    const { device, start, token } = await setUp();
    const cusDate = { startDate: start, endDate: start + HOUR };
    expect(await exportOf(token, { kind: 'raw', format: 'pdf', devID: device.devID, cusDate })).toMatchObject(
      {
        status: 400,
        body: { message: 'File not supported' },
      },
    );
    const tooLong = await exportOf(token, {
      kind: 'raw',
      format: 'csv',
      devID: device.devID,
      cusDate: { startDate: start - 40 * 24 * HOUR, endDate: start },
    });
    expect(tooLong).toMatchObject({
      status: 400,
      body: { message: 'Please select a date range of at most 31 days.' },
    });
  });

  it('offers All device Data only to the configured organization', async () => {
    const { device, start, token } = await setUp();
    const cusDate = { startDate: start, endDate: start + HOUR };
    expect(await exportOf(token, { kind: 'all', format: 'csv', devID: device.devID, cusDate })).toMatchObject(
      {
        status: 403,
      },
    );

    // The local stack's configured organization is the demo one, seeded with a day of readings.
    const demo = await createUser(0, ['org-demo']);
    const { accessToken } = await signInAs(demo);
    const lookup = await call<SensorDevicesAnswer>(
      '/api/dataQuery/getSensorDevices',
      { devID: '00:1A:22:00:05:12' },
      { token: accessToken },
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body.allDeviceExport).toBe(true);
    const all = await exportOf(accessToken, {
      kind: 'all',
      format: 'json',
      devID: '00:1A:22:00:05:12',
      cusDate: { startDate: Date.now() - 24 * HOUR, endDate: Date.now() },
    });
    expect(all.status).toBe(200);
    expect(all.body.fileName).toMatch(/^AllDevices_AllDeviceData_/);
    const text = all.body.url ? await (await fetch(all.body.url)).text() : (all.body.data ?? '');
    const devices = new Set((JSON.parse(text) as { devID: string }[]).map((r) => r.devID));
    expect(devices.size).toBeGreaterThan(5);
  });

  it('answers a large export as a download link to the file in storage', async () => {
    const { device, token } = await setUp();
    const start = hoursAgo(3 * 24);
    await writeMinutes(device.devID, start, 3 * 24 * 60);
    const big = await exportOf(token, {
      kind: 'raw',
      format: 'csv',
      devID: device.devID,
      cusDate: { startDate: start, endDate: start + 3 * 24 * HOUR },
    });
    expect(big.status).toBe(200);
    expect(big.body.data).toBeUndefined();
    expect(big.body.url).toMatch(/^http/);
    const file = await fetch(big.body.url ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.byteLength).toBe(big.body.size);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.trimEnd().split('\r\n')).toHaveLength(3 * 24 * 60 + 1);
  }, 180_000);
});
