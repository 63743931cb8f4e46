import * as z from 'zod/mini';
import { ECOBEE_HVAC_MODES, type EcobeeHvacMode } from '@argentum/contracts';
import { vendorError } from '../../domain/integrations/errors';
import {
  ECOBEE_THERMOSTATS_PER_REQUEST,
  type EcobeeThermostats,
  type EcobeeThermostatState,
  type EcobeeUpdate,
  type SecretStore,
} from '../../domain/integrations/ports';
import type { Clock, Logger } from '../../domain/ports';
import { readCredentials } from './credentials';
import { type Fetch, isVendorOutage, type VendorResponse, vendorRequest } from './http';
import { type AccessToken, TokenKeeper } from './tokens';

/**
 * Ecobee thermostats through the Ecobee API v1 (https://www.ecobee.com/home/developer/api/):
 * - GET  {api}/1/thermostat?format=json&body={"selection":{selectionType:'thermostats',
 *   selectionMatch:'id1,id2', includeRuntime, includeSettings, includeEvents}} -> {thermostatList, status};
 *   at most 25 ids a request, comma-separated without spaces (status 6 beyond);
 * - POST {api}/1/thermostat?format=json {selection, functions:[setHold], thermostat:{settings:{hvacMode}}}
 *   -> {status}; success when status.code is 0;
 * - POST {api}/token?grant_type=refresh_token&code={refreshToken}&client_id={apiKey}
 *   -> {access_token, refresh_token, expires_in}. Ecobee ROTATES the refresh token: the new one is
 *   stored in the secret at once (with the access token, so other instances reuse it).
 * An expired access token (HTTP 500 with status.code 14) is refreshed and the request sent once more.
 * Temperatures are tenths of °F at Ecobee and °C (one decimal) in the platform.
 */

export const ECOBEE_API_URL = 'https://api.ecobee.com';

/** The Ecobee secret: the application's API key and the rotating refresh token. */
export const ecobeeSecretSchema = z.lazy(() =>
  z.object({
    apiKey: z.string().check(z.minLength(1)),
    refreshToken: z.string().check(z.minLength(1)),
    accessToken: z.optional(z.string()),
    /** Epoch ms. */
    accessTokenExpiresAt: z.optional(z.number()),
  }),
);
export type EcobeeSecret = z.infer<typeof ecobeeSecretSchema>;

export interface EcobeeAdapterOptions {
  fetch: Fetch;
  secrets: SecretStore;
  secretId: string;
  clock: Clock;
  logger: Logger;
  timeoutMs: number;
  apiUrl?: string;
}

/** Ecobee status codes (https://www.ecobee.com/home/developer/api/documentation/v1/general/statusCodes.shtml). */
const TOKEN_EXPIRED = 14;
const NOT_AUTHORIZED = [1, 2, 16];
const PROCESSING_ERROR = 3;

/** Tenths of °F to °C with one decimal, and back. */
export const tenthsFahrenheitToCelsius = (tenths: number) =>
  Math.round((tenths / 10 - 32) * (5 / 9) * 10) / 10;
export const celsiusToTenthsFahrenheit = (celsius: number) => Math.round(((celsius * 9) / 5) * 10 + 320);

const statusSchema = z.lazy(() =>
  z.object({ status: z.object({ code: z.number(), message: z.optional(z.string()) }) }),
);
const range = z.lazy(() => z.tuple([z.number(), z.number()]));
const thermostatSchema = z.lazy(() =>
  z.object({
    identifier: z.string(),
    runtime: z.object({
      actualTemperature: z.number(),
      actualHumidity: z.number(),
      desiredHeat: z.number(),
      desiredCool: z.number(),
      desiredHeatRange: range,
      desiredCoolRange: range,
    }),
    settings: z.object({ hvacMode: z.enum(ECOBEE_HVAC_MODES) }),
    events: z.optional(
      z.array(z.object({ type: z.string(), running: z.boolean(), holdClimateRef: z.optional(z.string()) })),
    ),
  }),
);
const thermostatListSchema = z.lazy(() => z.object({ thermostatList: z.array(thermostatSchema) }));
const tokenSchema = z.lazy(() =>
  z.object({
    access_token: z.string().check(z.minLength(1)),
    refresh_token: z.string().check(z.minLength(1)),
    expires_in: z.number().check(z.positive()),
  }),
);

const statusCode = (response: VendorResponse): number | undefined => {
  const parsed = statusSchema.safeParse(response.json);
  return parsed.success ? parsed.data.status.code : undefined;
};

/** The platform's view of an Ecobee thermostat (a `thermostatList` entry). */
export function parseEcobeeThermostat(json: unknown): EcobeeThermostatState | undefined {
  const parsed = thermostatSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { runtime, settings, events } = parsed.data;
  const c = tenthsFahrenheitToCelsius;
  const hold = events?.find((e) => e.type === 'hold' && e.running);
  return {
    actualTemperature: c(runtime.actualTemperature),
    actualHumidity: runtime.actualHumidity,
    desiredHeat: c(runtime.desiredHeat),
    desiredCool: c(runtime.desiredCool),
    hvacMode: settings.hvacMode,
    desiredHeatRange: [c(runtime.desiredHeatRange[0]), c(runtime.desiredHeatRange[1])],
    desiredCoolRange: [c(runtime.desiredCoolRange[0]), c(runtime.desiredCoolRange[1])],
    holdClimateRef: hold ? (hold.holdClimateRef ?? '') : null,
  };
}

/** The body of the POST that applies an update. */
export function ecobeeUpdateBody(thermostatId: string, update: EcobeeUpdate) {
  return {
    selection: { selectionType: 'thermostats', selectionMatch: thermostatId },
    ...(update.hold
      ? {
          functions: [
            {
              type: 'setHold',
              params: {
                holdType: update.hold.holdType,
                heatHoldTemp: celsiusToTenthsFahrenheit(update.hold.heatCelsius),
                coolHoldTemp: celsiusToTenthsFahrenheit(update.hold.coolCelsius),
              },
            },
          ],
        }
      : {}),
    ...(update.hvacMode
      ? { thermostat: { settings: { hvacMode: update.hvacMode satisfies EcobeeHvacMode } } }
      : {}),
  };
}

export function createEcobeeAdapter(options: EcobeeAdapterOptions): EcobeeThermostats {
  const http = { vendor: 'ecobee' as const, fetch: options.fetch, timeoutMs: options.timeoutMs };
  const apiUrl = options.apiUrl ?? ECOBEE_API_URL;
  const credentials = (fresh = false): Promise<EcobeeSecret> =>
    readCredentials(options.secrets, options.secretId, ecobeeSecretSchema, 'ecobee', fresh);

  const storedToken = (secret: EcobeeSecret): AccessToken | undefined =>
    secret.accessToken && secret.accessTokenExpiresAt
      ? { value: secret.accessToken, expiresAt: secret.accessTokenExpiresAt }
      : undefined;
  const usable = (token: AccessToken | undefined, stale: string | undefined) =>
    token !== undefined && token.value !== stale && token.expiresAt - 60_000 > options.clock.now().getTime();

  async function refresh(secret: EcobeeSecret): Promise<VendorResponse> {
    const query = new URLSearchParams({
      grant_type: 'refresh_token',
      code: secret.refreshToken,
      client_id: secret.apiKey,
    });
    return vendorRequest(http, `${apiUrl}/token?${query.toString()}`, { method: 'POST' });
  }

  /**
   * A new access token. The refresh token is read fresh from the secret: another instance may have
   * rotated it, and then its stored access token is good to use. The rotated refresh token is stored
   * before the new access token is used.
   */
  async function obtain(stale: string | undefined): Promise<AccessToken> {
    const secret = await credentials(true);
    const stored = storedToken(secret);
    if (stored && usable(stored, stale)) return stored;
    const response = await refresh(secret);
    if (isVendorOutage(response.status)) throw vendorError('ecobee', 'unavailable');
    const token = tokenSchema.safeParse(response.json);
    if (response.status !== 200 || !token.success) throw vendorError('ecobee', 'unauthorized');
    const next: EcobeeSecret = {
      ...secret,
      refreshToken: token.data.refresh_token,
      accessToken: token.data.access_token,
      accessTokenExpiresAt: options.clock.now().getTime() + token.data.expires_in * 1000,
    };
    try {
      await options.secrets.write(options.secretId, JSON.stringify(next));
    } catch (error) {
      // The old refresh token is spent: without the new one stored, Ecobee must be connected again.
      options.logger.log('error', 'the rotated Ecobee refresh token could not be stored', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return { value: token.data.access_token, expiresAt: next.accessTokenExpiresAt ?? 0 };
  }

  const tokens = new TokenKeeper(obtain, options.clock);
  let adopted = false;

  async function call(url: string, init: RequestInit): Promise<VendorResponse> {
    if (!adopted) {
      // A cold instance starts from the access token stored with the credentials, if still good.
      const stored = storedToken(await credentials());
      if (stored) tokens.adopt(stored);
      adopted = true;
    }
    const response = await tokens.send(
      (accessToken) =>
        vendorRequest(http, url, {
          ...init,
          headers: { ...init.headers, authorization: `Bearer ${accessToken}` },
        }),
      (r) => statusCode(r) === TOKEN_EXPIRED,
    );
    // Ecobee answers failures as HTTP 500 with a status code in the body: judge by the code first.
    const code = statusCode(response);
    if (response.status === 200 && code === 0) return response;
    if (code === TOKEN_EXPIRED || (code !== undefined && NOT_AUTHORIZED.includes(code))) {
      throw vendorError('ecobee', 'unauthorized');
    }
    if (code === undefined || code === 0 || code === PROCESSING_ERROR)
      throw vendorError('ecobee', 'unavailable');
    const message = statusSchema.safeParse(response.json);
    throw vendorError('ecobee', 'refused', message.success ? message.data.status.message : undefined);
  }

  async function readMany(thermostatIds: readonly string[]): Promise<Map<string, EcobeeThermostatState>> {
    if (thermostatIds.length > ECOBEE_THERMOSTATS_PER_REQUEST)
      throw new Error(`at most ${ECOBEE_THERMOSTATS_PER_REQUEST} Ecobee thermostats a request`);
    const states = new Map<string, EcobeeThermostatState>();
    if (thermostatIds.length === 0) return states;
    const body = {
      selection: {
        selectionType: 'thermostats',
        selectionMatch: thermostatIds.join(','),
        includeRuntime: true,
        includeSettings: true,
        includeEvents: true,
      },
    };
    const query = new URLSearchParams({ format: 'json', body: JSON.stringify(body) });
    const response = await call(`${apiUrl}/1/thermostat?${query.toString()}`, {
      method: 'GET',
      headers: { 'content-type': 'text/json' },
    });
    const list = thermostatListSchema.safeParse(response.json);
    if (!list.success) throw vendorError('ecobee', 'unavailable');
    const wanted = new Set(thermostatIds);
    for (const thermostat of list.data.thermostatList) {
      if (!wanted.has(thermostat.identifier)) continue;
      const state = parseEcobeeThermostat(thermostat);
      if (!state) throw vendorError('ecobee', 'unavailable');
      states.set(thermostat.identifier, state);
    }
    return states;
  }

  return {
    readMany,
    async read(thermostatId) {
      const state = (await readMany([thermostatId])).get(thermostatId);
      if (!state) throw vendorError('ecobee', 'unknown-device');
      return state;
    },
    async update(thermostatId, update) {
      await call(`${apiUrl}/1/thermostat?format=json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json;charset=UTF-8' },
        body: JSON.stringify(ecobeeUpdateBody(thermostatId, update)),
      });
    },
  };
}
