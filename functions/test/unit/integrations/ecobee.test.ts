import { describe, expect, it } from 'vitest';
import {
  celsiusToTenthsFahrenheit,
  createEcobeeAdapter,
  tenthsFahrenheitToCelsius,
} from '../../../src/adapters/vendors/ecobee';
import { DomainError } from '../../../src/domain/errors';
import {
  ecobeeInvalidGrant,
  ecobeeOk,
  ecobeeThermostats,
  ecobeeToken,
  ecobeeTokenExpired,
  ecobeeValidationError,
} from './fixtures';
import { fixedClock, jsonReply, memorySecrets, scriptedFetch, silentLogger } from './support';

const secret = { apiKey: 'app-api-key', refreshToken: 'refresh-1' };
const readUrl =
  'https://api.ecobee.com/1/thermostat?format=json&body=' +
  encodeURIComponent(
    JSON.stringify({
      selection: {
        selectionType: 'thermostats',
        selectionMatch: '318324702718',
        includeRuntime: true,
        includeSettings: true,
        includeEvents: true,
      },
    }),
  ).replace(/%20/g, '+');
const tokenUrl = (code: string) =>
  `https://api.ecobee.com/token?grant_type=refresh_token&code=${code}&client_id=app-api-key`;

function ecobee(initial: Record<string, unknown>, ...replies: Parameters<typeof scriptedFetch>) {
  const { fetch, requests } = scriptedFetch(...replies);
  const secrets = memorySecrets({ 'ecobee-secret': initial });
  const clock = fixedClock();
  const logger = silentLogger();
  const adapter = createEcobeeAdapter({
    fetch,
    secrets: secrets.store,
    secretId: 'ecobee-secret',
    clock,
    logger,
    timeoutMs: 200,
  });
  return { adapter, requests, secrets, clock, logger };
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

describe('Ecobee adapter (Ecobee API v1)', () => {
  it('converts tenths of °F to °C with one decimal and back, round trip exact on 0.5 °C steps', () => {
    expect(tenthsFahrenheitToCelsius(716)).toBe(22);
    expect(tenthsFahrenheitToCelsius(698)).toBe(21);
    expect(tenthsFahrenheitToCelsius(450)).toBe(7.2);
    expect(celsiusToTenthsFahrenheit(22)).toBe(716);
    expect(celsiusToTenthsFahrenheit(21.5)).toBe(707);
    for (let c = 5; c <= 35; c += 0.5)
      expect(tenthsFahrenheitToCelsius(celsiusToTenthsFahrenheit(c))).toBe(c);
  });

  it('refreshes (storing the ROTATED refresh token), then reads runtime, settings and events in °C', async () => {
    const { adapter, requests, secrets } = ecobee(
      secret,
      jsonReply(200, ecobeeToken),
      jsonReply(200, ecobeeThermostats),
    );
    await expect(adapter.read('318324702718')).resolves.toEqual({
      actualTemperature: 22,
      actualHumidity: 43,
      desiredHeat: 21,
      desiredCool: 24,
      hvacMode: 'cool',
      desiredHeatRange: [7.2, 26.1],
      desiredCoolRange: [18.3, 33.3],
      holdClimateRef: '',
    });
    expect(requests).toEqual([
      { method: 'POST', url: tokenUrl('refresh-1'), headers: {}, body: undefined, bounded: true },
      {
        method: 'GET',
        url: readUrl,
        headers: { authorization: `Bearer ${ecobeeToken.access_token}`, 'content-type': 'text/json' },
        body: undefined,
        bounded: true,
      },
    ]);
    expect(secrets.writes).toEqual([
      {
        id: 'ecobee-secret',
        value: {
          apiKey: 'app-api-key',
          refreshToken: ecobeeToken.refresh_token,
          accessToken: ecobeeToken.access_token,
          accessTokenExpiresAt: Date.parse('2026-11-22T12:00:00Z') + 3599_000,
        },
      },
    ]);
  });

  it('posts a setHold in tenths of °F and the HVAC mode in one request; success is status.code 0', async () => {
    const { adapter, requests } = ecobee(secret, jsonReply(200, ecobeeToken), jsonReply(200, ecobeeOk));
    await adapter.update('318324702718', {
      hvacMode: 'heat',
      hold: { heatCelsius: 21.5, coolCelsius: 25, holdType: 'nextTransition' },
    });
    expect(requests[1]).toEqual({
      method: 'POST',
      url: 'https://api.ecobee.com/1/thermostat?format=json',
      headers: {
        authorization: `Bearer ${ecobeeToken.access_token}`,
        'content-type': 'application/json;charset=UTF-8',
      },
      body: JSON.stringify({
        selection: { selectionType: 'thermostats', selectionMatch: '318324702718' },
        functions: [
          { type: 'setHold', params: { holdType: 'nextTransition', heatHoldTemp: 707, coolHoldTemp: 770 } },
        ],
        thermostat: { settings: { hvacMode: 'heat' } },
      }),
      bounded: true,
    });
  });

  it('starts from the access token stored with the credentials while it is good', async () => {
    const stored = {
      ...secret,
      accessToken: 'stored-access',
      accessTokenExpiresAt: Date.parse('2026-11-22T12:30:00Z'),
    };
    const { adapter, requests } = ecobee(stored, jsonReply(200, ecobeeThermostats));
    await adapter.read('318324702718');
    expect(requests.map((r) => r.headers.authorization)).toEqual(['Bearer stored-access']);
  });

  it('on status 14 (token expired) refreshes, stores the rotated refresh token and retries once', async () => {
    const stored = {
      ...secret,
      accessToken: 'old-access',
      accessTokenExpiresAt: Date.parse('2026-11-22T12:30:00Z'),
    };
    const { adapter, requests, secrets } = ecobee(
      stored,
      jsonReply(500, ecobeeTokenExpired),
      jsonReply(200, ecobeeToken),
      jsonReply(200, ecobeeThermostats),
    );
    await expect(adapter.read('318324702718')).resolves.toMatchObject({ hvacMode: 'cool' });
    expect(
      requests.map(
        (r) => `${r.method} ${r.url === readUrl ? 'read' : r.url} ${r.headers.authorization ?? ''}`,
      ),
    ).toEqual([
      'GET read Bearer old-access',
      `POST ${tokenUrl('refresh-1')} `,
      `GET read Bearer ${ecobeeToken.access_token}`,
    ]);
    expect(secrets.value('ecobee-secret')).toMatchObject({ refreshToken: ecobeeToken.refresh_token });
  });

  it('uses a token another instance already rotated instead of spending the refresh token again', async () => {
    const { adapter, requests, secrets } = ecobee(
      { ...secret, accessToken: 'old-access', accessTokenExpiresAt: Date.parse('2026-11-22T12:30:00Z') },
      jsonReply(200, ecobeeThermostats),
      jsonReply(500, ecobeeTokenExpired),
      jsonReply(200, ecobeeThermostats),
    );
    await adapter.read('318324702718');
    // Meanwhile another instance refreshed (spending refresh-1) and stored its tokens.
    await secrets.store.write(
      'ecobee-secret',
      JSON.stringify({
        ...secret,
        refreshToken: 'refresh-2',
        accessToken: 'their-access',
        accessTokenExpiresAt: Date.parse('2026-11-22T13:00:00Z'),
      }),
    );
    await adapter.read('318324702718');
    expect(requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer old-access',
      'Bearer old-access',
      'Bearer their-access',
    ]);
  });

  it('answers "not connected" when the refresh token is refused, and logs a rotated token it could not store', async () => {
    const refused = ecobee(secret, jsonReply(400, ecobeeInvalidGrant));
    expect(await failure(refused.adapter.read('318324702718'))).toEqual({
      kind: 'upstream',
      message: 'Ecobee is not connected to the platform. Please ask an administrator to reconnect it.',
    });

    const unstored = ecobee(secret, jsonReply(200, ecobeeToken), jsonReply(200, ecobeeThermostats));
    unstored.secrets.store.write = () => Promise.reject(new Error('AccessDenied'));
    await unstored.adapter.read('318324702718');
    expect(unstored.logger.lines).toEqual(['the rotated Ecobee refresh token could not be stored']);
  });

  it('maps a refused update, an unknown thermostat, a 5xx, a network failure and a timeout to clear errors', async () => {
    const refused = ecobee(secret, jsonReply(200, ecobeeToken), jsonReply(500, ecobeeValidationError));
    expect(
      await failure(
        refused.adapter.update('318324702718', {
          hold: { heatCelsius: 40, coolCelsius: 41, holdType: 'indefinite' },
        }),
      ),
    ).toEqual({
      kind: 'conflict',
      message: 'Ecobee refused the change: Validation error. Hold temperature is out of range.',
    });

    const unknown = ecobee(
      secret,
      jsonReply(200, ecobeeToken),
      jsonReply(200, { ...ecobeeThermostats, thermostatList: [] }),
    );
    expect((await failure(unknown.adapter.read('318324702718'))).message).toBe(
      'Ecobee does not know this device. Please check its link.',
    );
    const down = ecobee(
      secret,
      jsonReply(200, ecobeeToken),
      new Response('<html>Bad gateway</html>', { status: 502 }),
    );
    expect(await failure(down.adapter.read('318324702718'))).toEqual({
      kind: 'upstream',
      message: 'Ecobee is not responding, please try again.',
    });
    const unreachable = ecobee(secret, 'network-error');
    expect((await failure(unreachable.adapter.read('318324702718'))).kind).toBe('upstream');
    const slow = ecobee(secret, 'hang');
    const started = Date.now();
    expect(await failure(slow.adapter.read('318324702718'))).toEqual({
      kind: 'upstream-timeout',
      message: 'Ecobee is not responding, please try again.',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads up to 25 thermostats in one request, naming them comma-separated, by id', async () => {
    const [first] = ecobeeThermostats.thermostatList;
    const other = {
      ...first,
      identifier: '318324702719',
      runtime: { ...first?.runtime, actualTemperature: 680 },
    };
    const { adapter, requests } = ecobee(
      secret,
      jsonReply(200, ecobeeToken),
      // Ecobee leaves out a thermostat the account does not hold.
      jsonReply(200, { ...ecobeeThermostats, thermostatList: [first, other] }),
    );
    const states = await adapter.readMany(['318324702718', '318324702719', '318324702720']);
    expect([...states.keys()]).toEqual(['318324702718', '318324702719']);
    expect(states.get('318324702719')?.actualTemperature).toBe(20);
    const sent = new URL(requests[1]?.url ?? '');
    expect(JSON.parse(sent.searchParams.get('body') ?? '')).toMatchObject({
      selection: { selectionType: 'thermostats', selectionMatch: '318324702718,318324702719,318324702720' },
    });
    const tooMany = Array.from({ length: 26 }, (_, i) => String(318324702700 + i));
    await expect(adapter.readMany(tooMany)).rejects.toThrow('at most 25 Ecobee thermostats a request');
    expect(requests).toHaveLength(2);
  });
});
