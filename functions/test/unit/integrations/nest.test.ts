import { describe, expect, it } from 'vitest';
import { createNestAdapter } from '../../../src/adapters/vendors/nest';
import { DomainError } from '../../../src/domain/errors';
import {
  googleInvalidGrant,
  googleToken,
  sdmFailedPrecondition,
  sdmNotFound,
  sdmThermostat,
  sdmUnauthenticated,
} from './fixtures';
import { fixedClock, jsonReply, memorySecrets, scriptedFetch } from './support';

const secret = {
  projectId: 'project-id',
  clientId: 'client-id.apps.googleusercontent.com',
  clientSecret: 'client-secret',
  refreshToken: '1//refresh-token',
};
const deviceUrl = 'https://smartdevicemanagement.googleapis.com/v1/enterprises/project-id/devices/device-id';

function nest(...replies: Parameters<typeof scriptedFetch>) {
  const { fetch, requests } = scriptedFetch(...replies);
  const secrets = memorySecrets({ 'nest-secret': secret });
  const clock = fixedClock();
  const adapter = createNestAdapter({
    fetch,
    secrets: secrets.store,
    secretId: 'nest-secret',
    clock,
    timeoutMs: 200,
  });
  return { adapter, requests, secrets, clock };
}

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const { kind, message } = error as DomainError;
  return { kind, message };
};

describe('Nest adapter (Smart Device Management API)', () => {
  it('refreshes an access token at Google, then reads the device with it, and parses its traits', async () => {
    const { adapter, requests } = nest(jsonReply(200, googleToken), jsonReply(200, sdmThermostat));
    await expect(adapter.read('device-id')).resolves.toEqual({
      ambientTemperatureCelsius: 21.83,
      ambientHumidityPercent: 35,
      mode: 'HEAT',
      eco: { mode: 'OFF', heatCelsius: 17.7, coolCelsius: 25.5 },
      heatCelsius: 20.5,
      coolCelsius: null,
    });
    expect(requests).toEqual([
      {
        method: 'POST',
        url: 'https://oauth2.googleapis.com/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=refresh_token&client_id=client-id.apps.googleusercontent.com&client_secret=client-secret&refresh_token=1%2F%2Frefresh-token',
        bounded: true,
      },
      {
        method: 'GET',
        url: deviceUrl,
        headers: { authorization: 'Bearer ya29.a0AfH6SMC-recorded' },
        body: undefined,
        bounded: true,
      },
    ]);
  });

  it('sends each command as executeCommand with the SDM command name and params, reusing the token', async () => {
    const { adapter, requests } = nest(
      jsonReply(200, googleToken),
      ...Array.from({ length: 5 }, () => jsonReply(200, {})),
    );
    await adapter.execute('device-id', { command: 'setHeat', heatCelsius: 21.5 });
    await adapter.execute('device-id', { command: 'setCool', coolCelsius: 24 });
    await adapter.execute('device-id', { command: 'setRange', heatCelsius: 19, coolCelsius: 25 });
    await adapter.execute('device-id', { command: 'setMode', mode: 'COOL' });
    await adapter.execute('device-id', { command: 'setEco', mode: 'MANUAL_ECO' });
    const commands = requests.slice(1);
    for (const r of commands) {
      expect(r).toMatchObject({
        method: 'POST',
        url: `${deviceUrl}:executeCommand`,
        headers: { authorization: 'Bearer ya29.a0AfH6SMC-recorded', 'content-type': 'application/json' },
        bounded: true,
      });
    }
    expect(commands.map((r) => JSON.parse(r.body ?? '') as unknown)).toEqual([
      {
        command: 'sdm.devices.commands.ThermostatTemperatureSetpoint.SetHeat',
        params: { heatCelsius: 21.5 },
      },
      { command: 'sdm.devices.commands.ThermostatTemperatureSetpoint.SetCool', params: { coolCelsius: 24 } },
      {
        command: 'sdm.devices.commands.ThermostatTemperatureSetpoint.SetRange',
        params: { heatCelsius: 19, coolCelsius: 25 },
      },
      { command: 'sdm.devices.commands.ThermostatMode.SetMode', params: { mode: 'COOL' } },
      { command: 'sdm.devices.commands.ThermostatEco.SetMode', params: { mode: 'MANUAL_ECO' } },
    ]);
  });

  it('on 401 refreshes the expired access token and retries once', async () => {
    const { adapter, requests } = nest(
      jsonReply(200, googleToken),
      jsonReply(200, sdmThermostat),
      jsonReply(401, sdmUnauthenticated),
      jsonReply(200, { ...googleToken, access_token: 'ya29.second' }),
      jsonReply(200, sdmThermostat),
    );
    await adapter.read('device-id');
    await expect(adapter.read('device-id')).resolves.toMatchObject({ mode: 'HEAT' });
    expect(requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization ?? ''}`)).toEqual([
      'POST https://oauth2.googleapis.com/token ',
      `GET ${deviceUrl} Bearer ya29.a0AfH6SMC-recorded`,
      `GET ${deviceUrl} Bearer ya29.a0AfH6SMC-recorded`,
      'POST https://oauth2.googleapis.com/token ',
      `GET ${deviceUrl} Bearer ya29.second`,
    ]);
  });

  it('renews a token shortly before it expires, without waiting for a 401', async () => {
    const { adapter, requests, clock } = nest(
      jsonReply(200, googleToken),
      jsonReply(200, sdmThermostat),
      jsonReply(200, { ...googleToken, access_token: 'ya29.second' }),
      jsonReply(200, sdmThermostat),
    );
    await adapter.read('device-id');
    clock.advance(3599_000 - 30_000);
    await adapter.read('device-id');
    expect(requests[3]?.headers.authorization).toBe('Bearer ya29.second');
  });

  it('answers "not connected" when Google refuses the refresh token, and when a retry is still refused', async () => {
    const refused = nest(jsonReply(400, googleInvalidGrant));
    expect(await failure(refused.adapter.read('device-id'))).toEqual({
      kind: 'upstream',
      message: 'Nest is not connected to the platform. Please ask an administrator to reconnect it.',
    });
    // The stored secret was read again, in case an operator had replaced the refresh token.
    expect(refused.secrets.reads.some((r) => r.fresh)).toBe(true);

    const stillRefused = nest(
      jsonReply(200, googleToken),
      jsonReply(401, sdmUnauthenticated),
      jsonReply(200, googleToken),
      jsonReply(401, sdmUnauthenticated),
    );
    expect((await failure(stillRefused.adapter.read('device-id'))).kind).toBe('upstream');
    expect(stillRefused.requests).toHaveLength(4);
  });

  it('maps a refused command, an unknown device, a 5xx, a network failure and a timeout to clear errors', async () => {
    const refused = nest(jsonReply(200, googleToken), jsonReply(400, sdmFailedPrecondition));
    expect(
      await failure(refused.adapter.execute('device-id', { command: 'setHeat', heatCelsius: 21 })),
    ).toEqual({
      kind: 'conflict',
      message: 'Nest refused the change: Cannot change setpoint while in eco mode.',
    });
    const unknown = nest(jsonReply(200, googleToken), jsonReply(404, sdmNotFound));
    expect(await failure(unknown.adapter.read('device-id'))).toEqual({
      kind: 'upstream',
      message: 'Nest does not know this device. Please check its link.',
    });
    const down = nest(
      jsonReply(200, googleToken),
      jsonReply(503, { error: { code: 503, status: 'UNAVAILABLE' } }),
    );
    expect(await failure(down.adapter.read('device-id'))).toEqual({
      kind: 'upstream',
      message: 'Nest is not responding, please try again.',
    });
    const unreachable = nest('network-error');
    expect(await failure(unreachable.adapter.read('device-id'))).toEqual({
      kind: 'upstream',
      message: 'Nest is not responding, please try again.',
    });
    const slow = nest(jsonReply(200, googleToken), 'hang');
    const started = Date.now();
    expect(await failure(slow.adapter.read('device-id'))).toEqual({
      kind: 'upstream-timeout',
      message: 'Nest is not responding, please try again.',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers "not connected" while its secret holds no credentials (the placeholder CDK creates)', async () => {
    const { fetch, requests } = scriptedFetch();
    const adapter = createNestAdapter({
      fetch,
      secrets: memorySecrets({ 'nest-secret': 'x7#random-placeholder' }).store,
      secretId: 'nest-secret',
      clock: fixedClock(),
      timeoutMs: 200,
    });
    expect((await failure(adapter.read('device-id'))).message).toBe(
      'Nest is not connected to the platform. Please ask an administrator to reconnect it.',
    );
    expect(requests).toEqual([]);
  });

  it('lists every thermostat of the project in one request, by device id, leaving out other devices', async () => {
    const camera = {
      name: 'enterprises/project-id/devices/camera-id',
      type: 'sdm.devices.types.CAMERA',
      traits: { 'sdm.devices.traits.Info': { customName: 'Door' } },
    };
    const second = {
      ...sdmThermostat,
      name: 'enterprises/project-id/devices/second-id',
      traits: {
        ...sdmThermostat.traits,
        'sdm.devices.traits.Temperature': { ambientTemperatureCelsius: 19.5 },
      },
    };
    const { adapter, requests } = nest(
      jsonReply(200, googleToken),
      jsonReply(200, { devices: [sdmThermostat, camera, second] }),
    );
    const listed = await adapter.list();
    expect([...listed.keys()]).toEqual(['device-id', 'second-id']);
    expect(listed.get('device-id')?.ambientTemperatureCelsius).toBe(21.83);
    expect(listed.get('second-id')?.ambientTemperatureCelsius).toBe(19.5);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST https://oauth2.googleapis.com/token',
      'GET https://smartdevicemanagement.googleapis.com/v1/enterprises/project-id/devices',
    ]);
  });

  it('answers an empty project with no thermostats, and a quota refusal (429) as not responding', async () => {
    const { adapter } = nest(
      jsonReply(200, googleToken),
      jsonReply(200, {}),
      jsonReply(429, { error: { code: 429, message: 'Rate limited.', status: 'RESOURCE_EXHAUSTED' } }),
    );
    expect((await adapter.list()).size).toBe(0);
    expect(await failure(adapter.list())).toEqual({
      kind: 'upstream',
      message: 'Nest is not responding, please try again.',
    });
  });
});
