import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVendorStandins, type VendorStandins } from '../../../../infra/local/vendor-standins';
import { LOCAL_CREDENTIALS } from '../../../../infra/local/vendors/credentials';
import { SDM_LIST_PER_MINUTE } from '../../../../infra/local/vendors/nest';
import { createEcobeeAdapter } from '../../../src/adapters/vendors/ecobee';
import { createNestAdapter } from '../../../src/adapters/vendors/nest';
import { systemClock } from '../../../src/domain/ports';
import { DomainError } from '../../../src/domain/errors';
import { memorySecrets, silentLogger } from './support';

/**
 * The vendor stand-ins hold the poller to the vendors' own limits: Ecobee's 25 thermostats a
 * selection and the SDM Sandbox's 5 `devices.list` a minute. Each test file gets its own stand-ins
 * (the quota is the stand-in's, shared by whoever calls it).
 */
let standins: VendorStandins;
let urls: { nest: string; googleOauth: string; ecobee: string };
beforeAll(async () => {
  standins = await startVendorStandins(0);
  const { nest, googleOauth, ecobee } = standins.settings.urls ?? {};
  if (!nest || !googleOauth || !ecobee) throw new Error('the stand-ins name no vendor URLs');
  urls = { nest, googleOauth, ecobee };
});
afterAll(() => standins.stop());

const secrets = () => memorySecrets({ nest: LOCAL_CREDENTIALS.nest, ecobee: LOCAL_CREDENTIALS.ecobee }).store;

async function addDevice(vendor: 'nest' | 'ecobee', id: string, state: Record<string, unknown>) {
  const response = await fetch(`${standins.url}/_standin/devices`, {
    method: 'POST',
    body: JSON.stringify({ vendor, id, state }),
  });
  expect(response.status).toBe(200);
}

describe('the Nest stand-in (SDM Sandbox)', () => {
  it(`lists the project's thermostats, and refuses a devices.list past ${SDM_LIST_PER_MINUTE} a minute`, async () => {
    await addDevice('nest', 'second-thermostat', { ambientTemperatureCelsius: 19 });
    const nest = createNestAdapter({
      fetch: (input, init) => fetch(input, init),
      secrets: secrets(),
      secretId: 'nest',
      clock: systemClock,
      timeoutMs: 2000,
      apiUrl: urls.nest,
      oauthUrl: urls.googleOauth,
    });
    for (let i = 0; i < SDM_LIST_PER_MINUTE; i++) {
      const listed = await nest.list();
      expect(listed.get('second-thermostat')?.ambientTemperatureCelsius).toBe(19);
      expect(listed.size).toBe(2);
    }
    const refused = await nest.list().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).details?.failure).toBe('unavailable');
    // devices.get has its own quota: a panel still reads its thermostat.
    expect((await nest.read('second-thermostat')).ambientTemperatureCelsius).toBe(19);
  });
});

describe('the Ecobee stand-in', () => {
  const ecobee = () =>
    createEcobeeAdapter({
      fetch: (input, init) => fetch(input, init),
      secrets: secrets(),
      secretId: 'ecobee',
      clock: systemClock,
      logger: silentLogger(),
      timeoutMs: 2000,
      apiUrl: urls.ecobee,
    });

  it('answers 25 thermostats in one request, leaving out one the account does not hold', async () => {
    const ids = Array.from({ length: 24 }, (_, i) => String(511000000000 + i));
    for (const [i, id] of ids.entries()) await addDevice('ecobee', id, { actualTemperature: 680 + i });
    const states = await ecobee().readMany([...ids, '599999999999']);
    expect(states.size).toBe(24);
    expect(states.get(ids[0] ?? '')?.actualTemperature).toBe(20);
  });

  it('refuses a selection of more than 25 thermostats with status 6, as Ecobee does', async () => {
    // Ecobee rotates refresh tokens: the one in force is the stand-in's.
    const { ecobeeRefreshToken } = await fetch(`${standins.url}/_standin/state`).then(
      (r) => r.json() as Promise<{ ecobeeRefreshToken: string }>,
    );
    const token = await fetch(
      `${urls.ecobee}/token?grant_type=refresh_token&code=${ecobeeRefreshToken}&client_id=${LOCAL_CREDENTIALS.ecobee.apiKey}`,
      { method: 'POST' },
    ).then((r) => r.json() as Promise<{ access_token: string }>);
    const read = (count: number) => {
      const selection = {
        selectionType: 'thermostats',
        selectionMatch: Array.from({ length: count }, (_, i) => String(511000000000 + i)).join(','),
        includeRuntime: true,
      };
      const query = new URLSearchParams({ format: 'json', body: JSON.stringify({ selection }) });
      return fetch(`${urls.ecobee}/1/thermostat?${query.toString()}`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: { code: number } } }));
    };
    expect((await read(25)).body.status.code).toBe(0);
    const refused = await read(26);
    expect(refused.status).toBe(500);
    expect(refused.body.status.code).toBe(6);
  });
});
