import * as z from 'zod/mini';
import type { NestEcoMode, NestMode } from '@argentum/contracts';
import { vendorError } from '../../domain/integrations/errors';
import type {
  NestCommand,
  NestThermostats,
  NestThermostatState,
  SecretStore,
} from '../../domain/integrations/ports';
import type { Clock } from '../../domain/ports';
import { readCredentials } from './credentials';
import { type Fetch, isVendorOutage, numberOrNull, type VendorResponse, vendorRequest } from './http';
import { type AccessToken, TokenKeeper } from './tokens';

/**
 * Google Nest thermostats through the Smart Device Management API
 * (https://developers.google.com/nest/device-access/api):
 * - GET  {api}/v1/enterprises/{projectId}/devices/{deviceId} -> the device with its traits;
 * - GET  {api}/v1/enterprises/{projectId}/devices -> {devices: [...]}, every device of the project
 *   (no pages), each named enterprises/{projectId}/devices/{deviceId};
 * - POST {api}/v1/enterprises/{projectId}/devices/{deviceId}:executeCommand {command, params} -> {};
 * - OAuth 2.0: POST {oauth}/token (form: grant_type=refresh_token, client_id, client_secret,
 *   refresh_token) -> {access_token, expires_in}. Google does not rotate the refresh token.
 * An expired access token (401) is refreshed and the request sent once more.
 */

export const NEST_API_URL = 'https://smartdevicemanagement.googleapis.com';
export const GOOGLE_OAUTH_URL = 'https://oauth2.googleapis.com';

/** The Nest secret: the Device Access project and the OAuth client with its refresh token. */
export const nestSecretSchema = z.lazy(() =>
  z.object({
    projectId: z.string().check(z.minLength(1)),
    clientId: z.string().check(z.minLength(1)),
    clientSecret: z.string().check(z.minLength(1)),
    refreshToken: z.string().check(z.minLength(1)),
  }),
);
export type NestSecret = z.infer<typeof nestSecretSchema>;

export interface NestAdapterOptions {
  fetch: Fetch;
  secrets: SecretStore;
  secretId: string;
  clock: Clock;
  timeoutMs: number;
  apiUrl?: string;
  oauthUrl?: string;
}

const TRAIT = 'sdm.devices.traits.';
const COMMAND = 'sdm.devices.commands.';

const deviceSchema = z.lazy(() =>
  z.object({ traits: z.record(z.string(), z.record(z.string(), z.unknown())) }),
);
const listSchema = z.lazy(() => z.object({ devices: z.optional(z.array(z.unknown())) }));
const listedSchema = z.lazy(() => z.object({ name: z.string(), type: z.optional(z.string()) }));
const THERMOSTAT_TYPE = 'sdm.devices.types.THERMOSTAT';
const tokenSchema = z.lazy(() =>
  z.object({
    access_token: z.string().check(z.minLength(1)),
    expires_in: z.number().check(z.positive()),
  }),
);
const errorSchema = z.lazy(() =>
  z.object({
    error: z.object({ message: z.optional(z.string()), status: z.optional(z.string()) }),
  }),
);

const NEST_MODES: readonly NestMode[] = ['HEAT', 'COOL', 'HEATCOOL', 'OFF'];

/** The SDM command of a platform command, with its parameters. */
export function sdmCommand(command: NestCommand): { command: string; params: Record<string, unknown> } {
  switch (command.command) {
    case 'setHeat':
      return {
        command: `${COMMAND}ThermostatTemperatureSetpoint.SetHeat`,
        params: { heatCelsius: command.heatCelsius },
      };
    case 'setCool':
      return {
        command: `${COMMAND}ThermostatTemperatureSetpoint.SetCool`,
        params: { coolCelsius: command.coolCelsius },
      };
    case 'setRange':
      return {
        command: `${COMMAND}ThermostatTemperatureSetpoint.SetRange`,
        params: { heatCelsius: command.heatCelsius, coolCelsius: command.coolCelsius },
      };
    case 'setMode':
      return { command: `${COMMAND}ThermostatMode.SetMode`, params: { mode: command.mode } };
    case 'setEco':
      return { command: `${COMMAND}ThermostatEco.SetMode`, params: { mode: command.mode } };
  }
}

/** The platform's view of an SDM thermostat's traits. */
export function parseNestDevice(json: unknown): NestThermostatState | undefined {
  const parsed = deviceSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const trait = (name: string) => parsed.data.traits[`${TRAIT}${name}`] ?? {};
  const mode = trait('ThermostatMode').mode;
  const eco = trait('ThermostatEco');
  const setpoint = trait('ThermostatTemperatureSetpoint');
  return {
    ambientTemperatureCelsius: numberOrNull(trait('Temperature').ambientTemperatureCelsius),
    ambientHumidityPercent: numberOrNull(trait('Humidity').ambientHumidityPercent),
    mode: NEST_MODES.includes(mode as NestMode) ? (mode as NestMode) : 'OFF',
    eco: {
      mode: (eco.mode === 'MANUAL_ECO' ? 'MANUAL_ECO' : 'OFF') satisfies NestEcoMode,
      heatCelsius: numberOrNull(eco.heatCelsius),
      coolCelsius: numberOrNull(eco.coolCelsius),
    },
    heatCelsius: numberOrNull(setpoint.heatCelsius),
    coolCelsius: numberOrNull(setpoint.coolCelsius),
  };
}

export function createNestAdapter(options: NestAdapterOptions): NestThermostats {
  const http = { vendor: 'nest' as const, fetch: options.fetch, timeoutMs: options.timeoutMs };
  const apiUrl = options.apiUrl ?? NEST_API_URL;
  const oauthUrl = options.oauthUrl ?? GOOGLE_OAUTH_URL;

  const credentials = (fresh = false): Promise<NestSecret> =>
    readCredentials(options.secrets, options.secretId, nestSecretSchema, 'nest', fresh);

  async function refresh(secret: NestSecret): Promise<VendorResponse> {
    return vendorRequest(http, `${oauthUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: secret.clientId,
        client_secret: secret.clientSecret,
        refresh_token: secret.refreshToken,
      }).toString(),
    });
  }

  /** A new access token; when the refresh token is refused, once more with the stored one (an operator may have replaced it). */
  async function obtain(): Promise<AccessToken> {
    const secret = await credentials();
    let response = await refresh(secret);
    if (response.status === 400 || response.status === 401) {
      const stored = await credentials(true);
      if (stored.refreshToken !== secret.refreshToken) response = await refresh(stored);
    }
    if (isVendorOutage(response.status)) throw vendorError('nest', 'unavailable');
    const token = tokenSchema.safeParse(response.json);
    if (response.status !== 200 || !token.success) throw vendorError('nest', 'unauthorized');
    return {
      value: token.data.access_token,
      expiresAt: options.clock.now().getTime() + token.data.expires_in * 1000,
    };
  }

  const tokens = new TokenKeeper(obtain, options.clock);

  /** A request about the project's devices: `path` is after `/devices` (empty for the list). */
  async function call(path: string, init: RequestInit): Promise<VendorResponse> {
    const { projectId } = await credentials();
    const url = `${apiUrl}/v1/enterprises/${encodeURIComponent(projectId)}/devices${path}`;
    const response = await tokens.send(
      (accessToken) =>
        vendorRequest(http, url, {
          ...init,
          headers: { ...init.headers, authorization: `Bearer ${accessToken}` },
        }),
      (r) => r.status === 401,
    );
    if (response.status === 200) return response;
    if (response.status === 401 || response.status === 403) throw vendorError('nest', 'unauthorized');
    if (response.status === 404) throw vendorError('nest', 'unknown-device');
    if (response.status === 400) {
      const error = errorSchema.safeParse(response.json);
      throw vendorError('nest', 'refused', error.success ? error.data.error.message : undefined);
    }
    throw vendorError('nest', 'unavailable');
  }

  return {
    async read(deviceId) {
      const response = await call(`/${encodeURIComponent(deviceId)}`, { method: 'GET' });
      const state = parseNestDevice(response.json);
      if (!state) throw vendorError('nest', 'unavailable');
      return state;
    },
    async list() {
      const response = await call('', { method: 'GET' });
      const list = listSchema.safeParse(response.json);
      if (!list.success) throw vendorError('nest', 'unavailable');
      const states = new Map<string, NestThermostatState>();
      for (const device of list.data.devices ?? []) {
        const listed = listedSchema.safeParse(device);
        if (!listed.success || listed.data.type !== THERMOSTAT_TYPE) continue;
        const state = parseNestDevice(device);
        const id = listed.data.name.slice(listed.data.name.lastIndexOf('/') + 1);
        if (state && id) states.set(id, state);
      }
      return states;
    },
    async execute(deviceId, command) {
      await call(`/${encodeURIComponent(deviceId)}:executeCommand`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sdmCommand(command)),
      });
    },
  };
}
