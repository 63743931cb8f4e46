import { randomUUID } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CommandHistoryAnswer,
  ECO_MODE_SET_TEXT,
  ECOBEE_MODE_SET_TEXT,
  type EcobeeStatsAnswer,
  HEATING_MODE_SET_TEXT,
  type NestAmbienceAnswer,
  NEST_TEMPERATURE_SET_TEXT,
  VALUE_HAS_BEEN_SET_TEXT,
} from '@argentum/contracts';
import { pollVendorDevices, type VendorPollPorts } from '../../src/domain/integrations/polling';
import { handler as vendorPollerHandler } from '../../src/lambda/vendor-poller';
import { dynamoPolledDevices } from '../../src/stores/vendor-poll';
import { dynamo } from '../../src/aws/dynamo';
import { config } from '../../src/config';
import { ENV } from '../../src/environment';
import { deviceItem, dynamoDevices } from '../../src/stores/devices';
import { call, createOwnOrganization, createUser, signInAs, stack } from '../support/api';
import { dc, newDevices, newPlace, userWith } from './devices-fixtures';
import { invokedAs } from '../../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const pollVendors = invokedAs('vendor-poller', vendorPollerHandler);

/**
 * The integrations through the API, against the local stand-ins of the vendor clouds
 * (infra/local/vendor-standins.ts) and of Secrets Manager, which hold the credentials.
 */

const standins = new URL(stack.env[ENV.ryseApiUrl] ?? '').origin;
type Vendor = 'ryse' | 'nest' | 'ecobee';

async function control(path: string, body: Record<string, unknown> = {}) {
  const response = await fetch(`${standins}/_standin/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** A device of the vendor at its stand-in, registered in the organization and linked to it. */
async function vendorDevice(orgId: string, vendor: Vendor, state: Record<string, unknown> = {}, link = true) {
  const vendorId =
    vendor === 'ecobee' ? String(Date.now()).slice(-12) + randomUUID().slice(0, 4) : randomUUID();
  await control('devices', { vendor, id: vendorId, state });
  const connDev = { ryse: 'shades', nest: 'nest', ecobee: 'ecobee' }[vendor];
  const idProperty = { ryse: 'ryseShadeId', nest: 'sdmDeviceId', ecobee: 'ecobeeThermostatId' }[vendor];
  const devID = `TP:${randomUUID().slice(0, 13)}`;
  await dynamo().send(
    new PutCommand({
      TableName: config.platformTable,
      Item: deviceItem({
        devID,
        devName: `${vendor}Test`,
        devType: 8,
        connDev,
        orgID: orgId,
        onFloor: false,
        dataPoints: [],
        properties: link ? { [idProperty]: vendorId } : {},
        updatedAt: new Date().toISOString(),
      }),
    }),
  );
  return devID;
}

/** Sets how a vendor's stand-in behaves for the duration of `work`. */
async function whileVendor<T>(vendor: Vendor, behaviour: string, work: () => Promise<T>): Promise<T> {
  await control('behaviour', { vendor, behaviour });
  try {
    return await work();
  } finally {
    await control('behaviour', { vendor, behaviour: 'ok' });
  }
}

let writer: string;
let reader: string;
let outsider: string;
let orgId: string;

beforeAll(async () => {
  const owner = await createUser(1, [], 'Vendor Writer');
  orgId = await createOwnOrganization(owner.userId, 1, 'Integrations Org');
  const readOnly = await createUser(0, [orgId]);
  const stranger = await createUser(3, []);
  await createOwnOrganization(stranger.userId, 3, 'Elsewhere');
  const [w, r, o] = await Promise.all(
    [owner, readOnly, stranger].map(async (u) => (await signInAs(u)).accessToken),
  );
  if (!w || !r || !o) throw new Error('Sign-in failed');
  [writer, reader, outsider] = [w, r, o];
});

const post = <T = Record<string, unknown>>(path: string, body: Record<string, unknown>, token = writer) =>
  call<T>(`/integrations/${path}`, body, { token });

describe('Ryse shades', () => {
  it('reads and moves a shade; the move shows in the next read', async () => {
    const devID = await vendorDevice(orgId, 'ryse', { position: 40 });
    expect(await post('ryse/getRyseGearPosition', { devID, devType: 8 })).toMatchObject({
      status: 200,
      body: { position: 40 },
    });
    expect(await post('ryse/setRyseGearPosition', { devID, devType: 8, value: 75 })).toMatchObject({
      status: 200,
      body: { message: 'Value has been set successfully', position: 75 },
    });
    expect((await post('ryse/getRyseGearPosition', { devID, devType: 8 }, reader)).body).toEqual({
      position: 75,
    });
  });

  it('refuses positions outside 0-100 or between steps', async () => {
    const devID = await vendorDevice(orgId, 'ryse');
    for (const value of [101, -1, 50.5]) {
      expect((await post('ryse/setRyseGearPosition', { devID, devType: 8, value })).status).toBe(400);
    }
  });
});

describe('Google Nest', () => {
  it('reads the Nest-like fields; mode, set point and eco changes show in later reads', async () => {
    const devID = await vendorDevice(orgId, 'nest');
    const ambience = await post<NestAmbienceAnswer>(
      'google/GoogleThermostatGetAmbience',
      { devID, devType: 8 },
      reader,
    );
    expect(ambience.status).toBe(200);
    expect(ambience.body).toEqual({
      ambientTemperatureCelsius: expect.any(Number) as number,
      ambientHumidityPercent: 41,
      mode: 'COOL',
      eco: { mode: 'OFF', heatCelsius: 17, coolCelsius: 26 },
      coolCelsius: 23,
      heatCelsius: null,
      min: 16,
      max: 30,
    });

    expect(await post('google/setGoogleThermostatMode', { devID, devType: 8, mode: 1 })).toEqual(
      expect.objectContaining({ status: 200, body: { message: 'Heating Mode set Successfully' } }),
    );
    expect(await post('google/setGoogleThermostatTemp', { devID, devType: 8, temp: 21.5, mode: 1 })).toEqual(
      expect.objectContaining({ status: 200, body: { message: 'Temperature set Successfully.' } }),
    );
    expect((await post('google/GoogleThermostatGetAmbience', { devID, devType: 8 })).body).toMatchObject({
      mode: 'HEAT',
      heatCelsius: 21.5,
      coolCelsius: null,
    });

    expect(await post('google/setGoogleThermostatEco', { devID, devType: 8, eco: true })).toEqual(
      expect.objectContaining({ status: 200, body: { message: 'Eco mode set successfully' } }),
    );
    expect((await post('google/GoogleThermostatGetAmbience', { devID, devType: 8 })).body).toMatchObject({
      eco: { mode: 'MANUAL_ECO' },
    });
    // Nest itself refuses a set point while eco mode is on.
    expect(await post('google/setGoogleThermostatTemp', { devID, devType: 8, temp: 22, mode: 1 })).toEqual(
      expect.objectContaining({
        status: 409,
        body: expect.objectContaining({
          message: 'Nest refused the change: Cannot change setpoint while in eco mode.',
        }) as object,
      }),
    );
    expect((await post('google/setGoogleThermostatEco', { devID, devType: 8, eco: false })).body).toEqual({
      message: 'Eco mode Removed',
    });
    expect((await post('google/setGoogleThermostatMode', { devID, devType: 8, mode: 0 })).body).toEqual({
      message: 'Cooling Mode set Successfully',
    });
  });

  it('holds set points to 16-30 °C in steps of 0.5 on the server', async () => {
    const devID = await vendorDevice(orgId, 'nest');
    for (const temp of [15.5, 30.5, 22.3]) {
      expect(await post('google/setGoogleThermostatTemp', { devID, devType: 8, temp, mode: 0 })).toEqual(
        expect.objectContaining({
          status: 400,
          body: { message: 'Temperature must be between 16 and 30 °C in steps of 0.5.' },
        }),
      );
    }
    expect(
      (await post('google/setGoogleThermostatTemp', { devID, devType: 8, temp: 30, mode: 0 })).status,
    ).toBe(200);
  });
});

describe('Ecobee', () => {
  it('reads the Ecobee-like fields in °C; set points and mode show in later reads', async () => {
    const devID = await vendorDevice(orgId, 'ecobee');
    const stats = await post<EcobeeStatsAnswer>(
      'ecobee/EcobeeGetThermostatStats',
      { devID, devType: 8 },
      reader,
    );
    expect(stats).toEqual(
      expect.objectContaining({
        status: 200,
        body: {
          actualTemperature: 22,
          actualHumidity: 43,
          desiredHeat: 21,
          desiredCool: 24,
          hvacMode: 'cool',
          desiredHeatRange: [7.2, 26.1],
          desiredCoolRange: [18.3, 33.3],
          holdClimateRef: null,
        },
      }),
    );
    const set = (mode: string, heatTemp: number, coolTemp: number) =>
      post('ecobee/EcobeeSetTemperatureAndMode', { devID, devType: 8, mode, heatTemp, coolTemp });
    expect((await set('heat', 21.5, 25)).body).toEqual({ message: 'heating/cooling mode set successfully' });
    expect((await set('heat', 22, 25)).body).toEqual({ message: 'Temperature set successfully.' });
    expect((await post('ecobee/EcobeeGetThermostatStats', { devID, devType: 8 })).body).toMatchObject({
      desiredHeat: 22,
      desiredCool: 25,
      hvacMode: 'heat',
      holdClimateRef: '',
    });
    expect(await set('heat', 30, 31)).toEqual(
      expect.objectContaining({
        status: 400,
        body: { message: 'The heating temperature must be between 7 and 26 °C.' },
      }),
    );
    expect((await set('fan', 21, 25)).body).toEqual({
      message: 'Mode must be one of auto, auxHeatOnly, cool, heat, off.',
    });
  });
});

describe('tokens', () => {
  it('refreshes expired access tokens and keeps working; Ecobee rotates its refresh token into the secret', async () => {
    const nest = await vendorDevice(orgId, 'nest');
    const ecobee = await vendorDevice(orgId, 'ecobee');
    const secrets = new SecretsManagerClient({});
    const storedRefreshToken = async () => {
      const { SecretString } = await secrets.send(
        new GetSecretValueCommand({ SecretId: stack.env[ENV.ecobeeSecretId] }),
      );
      return (JSON.parse(SecretString ?? '{}') as { refreshToken?: string }).refreshToken;
    };
    try {
      for (let round = 0; round < 2; round++) {
        await control('expire-tokens');
        const before = (await control('state')) as {
          counters: { ecobeeRefreshes: number; googleRefreshes: number };
        };
        expect((await post('google/GoogleThermostatGetAmbience', { devID: nest, devType: 8 })).status).toBe(
          200,
        );
        expect((await post('ecobee/EcobeeGetThermostatStats', { devID: ecobee, devType: 8 })).status).toBe(
          200,
        );
        const after = (await control('state')) as {
          counters: { ecobeeRefreshes: number; googleRefreshes: number };
          ecobeeRefreshToken: string;
        };
        expect(after.counters.googleRefreshes).toBe(before.counters.googleRefreshes + 1);
        expect(after.counters.ecobeeRefreshes).toBe(before.counters.ecobeeRefreshes + 1);
        // The stand-in accepts only the newest refresh token: the next round proves it was kept.
        expect(await storedRefreshToken()).toBe(after.ecobeeRefreshToken);
      }
    } finally {
      secrets.destroy();
    }
  });
});

describe('access', () => {
  it('refuses writes to read-only members (403) and answers a foreign device like an unknown one (404)', async () => {
    const shade = await vendorDevice(orgId, 'ryse');
    const nest = await vendorDevice(orgId, 'nest');
    const ecobee = await vendorDevice(orgId, 'ecobee');
    const writes: [string, Record<string, unknown>][] = [
      ['ryse/setRyseGearPosition', { devID: shade, devType: 8, value: 10 }],
      ['google/setGoogleThermostatTemp', { devID: nest, devType: 8, temp: 22, mode: 0 }],
      ['google/setGoogleThermostatMode', { devID: nest, devType: 8, mode: 1 }],
      ['google/setGoogleThermostatEco', { devID: nest, devType: 8, eco: true }],
      [
        'ecobee/EcobeeSetTemperatureAndMode',
        { devID: ecobee, devType: 8, mode: 'cool', heatTemp: 20, coolTemp: 25 },
      ],
    ];
    const reads: [string, Record<string, unknown>][] = [
      ['ryse/getRyseGearPosition', { devID: shade, devType: 8 }],
      ['google/GoogleThermostatGetAmbience', { devID: nest, devType: 8 }],
      ['ecobee/EcobeeGetThermostatStats', { devID: ecobee, devType: 8 }],
    ];
    for (const [path, body] of writes) {
      expect(await post(path, body, reader), path).toEqual(
        expect.objectContaining({ status: 403, body: { message: 'User is unAuthorized' } }),
      );
    }
    for (const [path, body] of [...writes, ...reads]) {
      const foreign = await post(path, body, outsider);
      const unknown = await post(path, { ...body, devID: 'TP:unknown-device' }, writer);
      expect(foreign, path).toEqual(
        expect.objectContaining({ status: 404, body: { message: 'Device not found.' } }),
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(foreign.body);
    }
    expect((await call('/integrations/ryse/getRyseGearPosition', { devID: shade, devType: 8 })).status).toBe(
      401,
    );
  });

  it("refuses a device of another vendor, and one not linked to its vendor's account", async () => {
    const ecobee = await vendorDevice(orgId, 'ecobee');
    expect(await post('google/GoogleThermostatGetAmbience', { devID: ecobee, devType: 8 })).toEqual(
      expect.objectContaining({ status: 400, body: { message: 'This device is not a Nest device.' } }),
    );
    const unlinked = await vendorDevice(orgId, 'nest', {}, false);
    expect(await post('google/GoogleThermostatGetAmbience', { devID: unlinked, devType: 8 })).toEqual(
      expect.objectContaining({
        status: 400,
        body: { message: 'This device is not linked to its Nest account yet.' },
      }),
    );
  });
});

describe('a vendor that is down or slow', () => {
  it('answers 504 "<Vendor> is not responding" within the 5 s limit when the vendor hangs', async () => {
    const nest = await vendorDevice(orgId, 'nest');
    await whileVendor('nest', 'hang', async () => {
      const started = Date.now();
      const result = await post('google/GoogleThermostatGetAmbience', { devID: nest, devType: 8 });
      expect(result.status).toBe(504);
      expect(result.body).toMatchObject({ message: 'Nest is not responding, please try again.' });
      expect(Date.now() - started).toBeLessThan(9_000);
    });
  });

  it('answers 502 at once when the vendor fails or drops the connection', async () => {
    const ecobee = await vendorDevice(orgId, 'ecobee');
    const shade = await vendorDevice(orgId, 'ryse');
    await whileVendor('ecobee', 'fail', async () => {
      const started = Date.now();
      const result = await post('ecobee/EcobeeGetThermostatStats', { devID: ecobee, devType: 8 });
      expect(result).toEqual(
        expect.objectContaining({
          status: 502,
          body: expect.objectContaining({ message: 'Ecobee is not responding, please try again.' }) as object,
        }),
      );
      expect(Date.now() - started).toBeLessThan(3_000);
    });
    await whileVendor('ryse', 'reset', async () => {
      const result = await post('ryse/setRyseGearPosition', { devID: shade, devType: 8, value: 20 });
      expect(result.status).toBe(502);
      expect(result.body).toMatchObject({ message: 'Ryse is not responding, please try again.' });
    });
    // And back to normal once the vendor is.
    expect((await post('ryse/getRyseGearPosition', { devID: shade, devType: 8 })).status).toBe(200);
  });
});

describe('vendor writes in the command history', () => {
  const history = async (devID: string, token = reader) => {
    const result = await call<CommandHistoryAnswer>(
      '/api/deviceControl/getCommandHistory',
      { devID },
      { token },
    );
    expect(result.status).toBe(200);
    return result.body.commands;
  };

  it("records every write with who asked what and the vendor's answer: confirmed with the value its cloud reports, or failed", async () => {
    const shade = await vendorDevice(orgId, 'ryse', { position: 40 });
    const nest = await vendorDevice(orgId, 'nest');
    const ecobee = await vendorDevice(orgId, 'ecobee');
    expect((await post('ryse/setRyseGearPosition', { devID: shade, devType: 8, value: 75 })).status).toBe(
      200,
    );
    await whileVendor('ryse', 'reset', async () => {
      expect((await post('ryse/setRyseGearPosition', { devID: shade, devType: 8, value: 20 })).status).toBe(
        502,
      );
    });
    // A refused request (out of range) never reached the vendor: nothing to record.
    expect((await post('ryse/setRyseGearPosition', { devID: shade, devType: 8, value: 101 })).status).toBe(
      400,
    );
    const [failed, confirmed, ...older] = await history(shade);
    expect(older).toEqual([]);
    expect(confirmed).toMatchObject({
      call: 'setRyseGearPosition',
      val: 75,
      status: 'confirmed',
      reply: { outcome: 'success', val: 75 },
      text: VALUE_HAS_BEEN_SET_TEXT,
      requestedBy: { userName: 'Vendor Writer' },
    });
    expect(failed).toMatchObject({
      call: 'setRyseGearPosition',
      val: 20,
      status: 'failed',
      reply: { outcome: 'fail' },
      text: 'Ryse is not responding, please try again.',
    });

    expect((await post('google/setGoogleThermostatMode', { devID: nest, devType: 8, mode: 1 })).status).toBe(
      200,
    );
    expect(
      (await post('google/setGoogleThermostatTemp', { devID: nest, devType: 8, temp: 21.5, mode: 1 })).status,
    ).toBe(200);
    expect((await post('google/setGoogleThermostatEco', { devID: nest, devType: 8, eco: true })).status).toBe(
      200,
    );
    expect(await history(nest)).toMatchObject([
      {
        call: 'setGoogleThermostatEco',
        val: 'MANUAL_ECO',
        status: 'confirmed',
        reply: { val: 'MANUAL_ECO' },
        text: ECO_MODE_SET_TEXT,
      },
      {
        call: 'setGoogleThermostatTemp',
        val: 21.5,
        key: 'HEAT',
        status: 'confirmed',
        reply: { val: 21.5 },
        text: NEST_TEMPERATURE_SET_TEXT,
      },
      {
        call: 'setGoogleThermostatMode',
        val: 'HEAT',
        status: 'confirmed',
        reply: { val: 'HEAT' },
        text: HEATING_MODE_SET_TEXT,
      },
    ]);

    const set = { devID: ecobee, devType: 8, mode: 'heat', heatTemp: 21.5, coolTemp: 25 };
    expect((await post('ecobee/EcobeeSetTemperatureAndMode', set)).status).toBe(200);
    expect(await history(ecobee)).toMatchObject([
      {
        call: 'EcobeeSetTemperatureAndMode',
        val: [21.5, 25],
        key: 'heat',
        status: 'confirmed',
        reply: { val: [21.5, 25] },
        text: ECOBEE_MODE_SET_TEXT,
      },
    ]);
    // Another organization's member cannot read it.
    const foreign = await call('/api/deviceControl/getCommandHistory', { devID: shade }, { token: outsider });
    expect(foreign.status).toBe(404);
  });
});

// The vendor poller (lambda/vendor-poller.ts), in this file because the outages above are the stand-ins'
// as a whole: a poll that ran beside one would read nothing. What it reads goes through the telemetry
// rule and ingest as the device's own reading.

async function standinDevice(vendor: 'nest' | 'ecobee' | 'ryse', state: Record<string, unknown>) {
  const id =
    vendor === 'ecobee' ? String(Date.now()).slice(-9) + String(Math.random()).slice(2, 5) : randomUUID();
  const response = await fetch(`${standins}/_standin/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vendor, id, state }),
  });
  expect(response.status).toBe(200);
  return id;
}

/** A Nest and an Ecobee thermostat and a Ryse shade on a floor of a new organization, not linked yet, and its admin. */
async function vendorDevices() {
  const place = await newPlace('Thermostats');
  const [nest, ecobee, shade] = await newDevices(
    place,
    [
      {
        devType: 8,
        connDev: 'nest',
        devName: 'NestLobby',
        dataPoints: [{ dp: 'ambientTemperatureCelsius' }, { dp: 'ambientHumidityPercent' }],
      },
      {
        devType: 8,
        connDev: 'ecobee',
        devName: 'EcobeeOffice',
        dataPoints: [{ dp: 'actualTemperature' }, { dp: 'actualHumidity' }],
      },
      { devType: 8, connDev: 'shades', devName: 'RyseLobby', dataPoints: [{ dp: 'position' }] },
    ],
    place.floorId,
  );
  if (!nest || !ecobee || !shade) throw new Error('no devices');
  const admin = await userWith({ [place.orgId]: 2 });
  const link = async (devID: string, properties: Record<string, unknown>) =>
    expect(
      (await admin.call(dc('updateDevice'), { devID, devType: 8, devUpdateObj: { properties } })).status,
    ).toBe(200);
  return { place, nest, ecobee, shade, admin, link };
}

const latestOf = async (devId: string) => (await dynamoDevices.get(devId))?.latest;

describe('the vendor poller', () => {
  it("puts a linked device's reading on the floor, the same as its panel reads", async () => {
    const { nest, ecobee, shade, admin, link } = await vendorDevices();
    const sdmId = await standinDevice('nest', {
      ambientTemperatureCelsius: 19.5,
      ambientHumidityPercent: 38,
    });
    // Ecobee speaks tenths of °F: 70.0 °F is 21.1 °C.
    const ecobeeId = await standinDevice('ecobee', { actualTemperature: 700, actualHumidity: 41 });
    await link(nest.devID, { sdmDeviceId: sdmId });
    await link(ecobee.devID, { ecobeeThermostatId: ecobeeId });
    const ryseId = await standinDevice('ryse', { position: 70 });
    await link(shade.devID, { ryseShadeId: ryseId });
    // Linking lists them for the poller.
    const listed = (await dynamoPolledDevices.list()).map((entry) => entry.devId);
    expect(listed).toEqual(expect.arrayContaining([nest.devID, ecobee.devID, shade.devID]));

    const result = await pollVendors({ time: new Date().toISOString() });
    expect(result.Polled).toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => latestOf(nest.devID))
      .toEqual({ ambientTemperatureCelsius: 19.5, ambientHumidityPercent: 38 });
    await expect.poll(() => latestOf(ecobee.devID)).toEqual({ actualTemperature: 21.1, actualHumidity: 41 });
    await expect.poll(() => latestOf(shade.devID)).toEqual({ position: 70 });
    // Seen: they are online like any device that reports.
    await expect.poll(async () => (await dynamoDevices.get(nest.devID))?.presence?.online).toBe(true);

    // The panels read the same temperatures in the vendors' clouds.
    const panel = await admin.call<NestAmbienceAnswer>('/integrations/google/GoogleThermostatGetAmbience', {
      devID: nest.devID,
      devType: 8,
    });
    expect(panel.body.ambientTemperatureCelsius).toBe(19.5);
    const stats = await admin.call<EcobeeStatsAnswer>('/integrations/ecobee/EcobeeGetThermostatStats', {
      devID: ecobee.devID,
      devType: 8,
    });
    expect(stats.body.actualTemperature).toBe(21.1);
    const position = await admin.call<{ position: number }>('/integrations/ryse/getRyseGearPosition', {
      devID: shade.devID,
      devType: 8,
    });
    expect(position.body.position).toBe(70);
  });

  it('reads the others when a vendor does not answer for one, and counts it failed', async () => {
    const { nest, ecobee, link } = await vendorDevices();
    const ecobeeId = await standinDevice('ecobee', { actualTemperature: 680, actualHumidity: 44 });
    // A Nest id its cloud does not know (the thermostat was removed from the Google account).
    await link(nest.devID, { sdmDeviceId: `gone-${randomUUID()}` });
    await link(ecobee.devID, { ecobeeThermostatId: ecobeeId });

    const result = await pollVendors({ time: new Date().toISOString() });
    expect(result.Failed).toBeGreaterThanOrEqual(1);
    await expect.poll(() => latestOf(ecobee.devID)).toEqual({ actualTemperature: 20, actualHumidity: 44 });
    expect(await latestOf(nest.devID)).toBeUndefined();
  });

  it('takes a device off its list once it is unlinked or gone, unless it was linked again meanwhile', async () => {
    const { nest, link } = await vendorDevices();
    const sdmId = await standinDevice('nest', {});
    await link(nest.devID, { sdmDeviceId: sdmId });
    const gone = `TP:${randomUUID().slice(0, 13)}`;
    await dynamoPolledDevices.add(gone, new Date().toISOString());
    // Unlinked: the link property emptied.
    await link(nest.devID, { sdmDeviceId: '' });
    const relisted = `TP:${randomUUID().slice(0, 13)}`;
    await dynamoPolledDevices.add(relisted, new Date(Date.now() - 60_000).toISOString());

    const ports: VendorPollPorts = {
      polled: {
        ...dynamoPolledDevices,
        // Linked again while the poller decides (a newer listing): the poller's removal must not win.
        remove: async (entry) => {
          if (entry.devId === relisted) await dynamoPolledDevices.add(relisted, new Date().toISOString());
          await dynamoPolledDevices.remove(entry);
        },
      },
      devices: dynamoDevices,
      nest: { list: () => Promise.reject(new Error('not asked')) },
      ecobee: { readMany: () => Promise.reject(new Error('not asked')) },
      ryse: { getPosition: () => Promise.reject(new Error('not asked')) },
      telemetry: { send: () => Promise.resolve() },
      logger: { log: () => undefined },
    };
    const result = await pollVendorDevices(
      {
        ...ports,
        polled: {
          ...ports.polled,
          list: async () =>
            (await dynamoPolledDevices.list()).filter((e) => [nest.devID, gone, relisted].includes(e.devId)),
        },
      },
      new Date(),
    );
    expect(result).toMatchObject({ Unlisted: 3, Polled: 0, Failed: 0 });
    const left = (await dynamoPolledDevices.list()).map((entry) => entry.devId);
    expect(left).not.toContain(nest.devID);
    expect(left).not.toContain(gone);
    expect(left).toContain(relisted);
    await dynamoPolledDevices.remove(
      (await dynamoPolledDevices.list()).find((e) => e.devId === relisted) ?? {
        devId: relisted,
        listedAt: '',
      },
    );
  });

  it("shows a panel's read and a shade's move on the floor at once, before the poller runs", async () => {
    const { nest, shade, admin, link } = await vendorDevices();
    const ryseId = await standinDevice('ryse', { position: 30 });
    await link(shade.devID, { ryseShadeId: ryseId });
    const sdmId = await standinDevice('nest', {
      ambientTemperatureCelsius: 18.5,
      ambientHumidityPercent: 52,
      mode: 'OFF',
    });
    await link(nest.devID, { sdmDeviceId: sdmId });

    const call = (path: string, body: Record<string, unknown>) =>
      admin.call(`/integrations/${path}`, { devType: 8, ...body });
    expect((await call('ryse/getRyseGearPosition', { devID: shade.devID })).status).toBe(200);
    await expect.poll(() => latestOf(shade.devID)).toEqual({ position: 30 });
    expect((await call('ryse/setRyseGearPosition', { devID: shade.devID, value: 80 })).status).toBe(200);
    await expect.poll(() => latestOf(shade.devID)).toEqual({ position: 80 });
    expect((await call('google/GoogleThermostatGetAmbience', { devID: nest.devID })).status).toBe(200);
    await expect
      .poll(() => latestOf(nest.devID))
      .toEqual({ ambientTemperatureCelsius: 18.5, ambientHumidityPercent: 52 });
  });
});
