import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEMO_VENDOR_IDS, LOCAL_CREDENTIALS } from './credentials';
import { ACCESS_TOKEN_SECONDS, AccessTokens, bearer, json, parse, type VendorHandler } from './http';

/** Google: the OAuth 2.0 token endpoint and Smart Device Management (Nest thermostats). */

export interface NestState {
  ambientTemperatureCelsius: number;
  ambientHumidityPercent: number;
  mode: 'HEAT' | 'COOL' | 'HEATCOOL' | 'OFF';
  eco: { mode: 'MANUAL_ECO' | 'OFF'; heatCelsius: number; coolCelsius: number };
  heatCelsius: number;
  coolCelsius: number;
}

export const defaultNestState = (): NestState => ({
  ambientTemperatureCelsius: 22.5,
  ambientHumidityPercent: 41,
  mode: 'COOL',
  eco: { mode: 'OFF', heatCelsius: 17, coolCelsius: 26 },
  heatCelsius: 20,
  coolCelsius: 23,
});

/** When each thermostat's room was last brought up to date (see driftTowardsSetPoint). */
const settledAt = new WeakMap<NestState, number>();

/**
 * Like a real room, the ambient temperature moves towards the set point in force, 0.1 °C a minute, with
 * time (not with reads: the panel and the vendor poller read the same temperature in the same minute).
 */
function driftTowardsSetPoint(state: NestState, now: number) {
  const since = settledAt.get(state) ?? now;
  const minutes = Math.floor((now - since) / 60_000);
  if (!settledAt.has(state) || minutes > 0) settledAt.set(state, since + minutes * 60_000);
  const target =
    state.eco.mode === 'MANUAL_ECO'
      ? undefined
      : state.mode === 'HEAT'
        ? state.heatCelsius
        : state.mode === 'COOL'
          ? state.coolCelsius
          : undefined;
  if (target === undefined || minutes === 0) return;
  const gap = target - state.ambientTemperatureCelsius;
  const step = Math.sign(gap) * Math.min(Math.abs(gap), minutes * 0.1);
  state.ambientTemperatureCelsius = Math.round((state.ambientTemperatureCelsius + step) * 10) / 10;
}

/**
 * The Sandbox's per-minute quotas of the SDM API, per project and user
 * (developers.google.com/nest/device-access/project/limits): a request past one is answered 429
 * RESOURCE_EXHAUSTED. `devices.get` (10) is not held to here: the panels of every test file share the
 * one demo project, and a real project's quota is per user.
 */
export const SDM_LIST_PER_MINUTE = 5;

export function nestStandin() {
  const nestDevices = new Map<string, NestState>([[DEMO_VENDOR_IDS.nest, defaultNestState()]]);
  const googleTokens = new AccessTokens();
  const counters = { refreshes: 0, lists: 0 };
  /** When each `devices.list` of the last minute was answered. */
  let listedAt: number[] = [];

  // Google: OAuth token endpoint and Smart Device Management.
  const googleError = (response: ServerResponse, code: number, status: string, message: string) =>
    json(response, code, { error: { code, message, status } });

  function googleToken(form: URLSearchParams, response: ServerResponse) {
    const c = LOCAL_CREDENTIALS.nest;
    if (form.get('grant_type') !== 'refresh_token') {
      return json(response, 400, {
        error: 'unsupported_grant_type',
        error_description: 'Invalid grant_type',
      });
    }
    if (form.get('client_id') !== c.clientId || form.get('client_secret') !== c.clientSecret) {
      return json(response, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    }
    if (form.get('refresh_token') !== c.refreshToken) {
      return json(response, 400, {
        error: 'invalid_grant',
        error_description: 'Token has been expired or revoked.',
      });
    }
    counters.refreshes++;
    return json(response, 200, {
      access_token: googleTokens.issue('ya29.local-'),
      expires_in: ACCESS_TOKEN_SECONDS - 1,
      scope: 'https://www.googleapis.com/auth/sdm.service',
      token_type: 'Bearer',
    });
  }

  function nestDevice(project: string, id: string, state: NestState) {
    driftTowardsSetPoint(state, Date.now());
    const setpoint =
      state.eco.mode === 'MANUAL_ECO' || state.mode === 'OFF'
        ? {}
        : state.mode === 'HEAT'
          ? { heatCelsius: state.heatCelsius }
          : state.mode === 'COOL'
            ? { coolCelsius: state.coolCelsius }
            : { heatCelsius: state.heatCelsius, coolCelsius: state.coolCelsius };
    return {
      name: `enterprises/${project}/devices/${id}`,
      type: 'sdm.devices.types.THERMOSTAT',
      assignee: `enterprises/${project}/structures/local-structure/rooms/local-room`,
      traits: {
        'sdm.devices.traits.Info': { customName: '' },
        'sdm.devices.traits.Humidity': { ambientHumidityPercent: state.ambientHumidityPercent },
        'sdm.devices.traits.Connectivity': { status: 'ONLINE' },
        'sdm.devices.traits.Fan': {},
        'sdm.devices.traits.ThermostatMode': {
          mode: state.mode,
          availableModes: ['HEAT', 'COOL', 'HEATCOOL', 'OFF'],
        },
        'sdm.devices.traits.ThermostatEco': {
          availableModes: ['OFF', 'MANUAL_ECO'],
          mode: state.eco.mode,
          heatCelsius: state.eco.heatCelsius,
          coolCelsius: state.eco.coolCelsius,
        },
        'sdm.devices.traits.ThermostatHvac': { status: 'OFF' },
        'sdm.devices.traits.Settings': { temperatureScale: 'CELSIUS' },
        'sdm.devices.traits.ThermostatTemperatureSetpoint': setpoint,
        'sdm.devices.traits.Temperature': { ambientTemperatureCelsius: state.ambientTemperatureCelsius },
      },
      parentRelations: [],
    };
  }

  function nestCommand(state: NestState, body: unknown, response: ServerResponse) {
    const { command, params } = (body ?? {}) as { command?: string; params?: Record<string, unknown> };
    const p = params ?? {};
    const num = (key: string) => (typeof p[key] === 'number' ? (p[key] as number) : undefined);
    const precondition = (message: string) => googleError(response, 400, 'FAILED_PRECONDITION', message);
    const invalid = (message: string) => googleError(response, 400, 'INVALID_ARGUMENT', message);
    const setpoint = (needs: NestState['mode']) => {
      if (state.eco.mode === 'MANUAL_ECO') return precondition('Cannot change setpoint while in eco mode.');
      if (state.mode !== needs) return precondition(`Thermostat is not in ${needs} mode.`);
      return undefined;
    };
    switch (command) {
      case 'sdm.devices.commands.ThermostatTemperatureSetpoint.SetHeat': {
        const heat = num('heatCelsius');
        if (heat === undefined) return invalid('Invalid value for heatCelsius.');
        if (setpoint('HEAT')) return;
        state.heatCelsius = heat;
        return json(response, 200, {});
      }
      case 'sdm.devices.commands.ThermostatTemperatureSetpoint.SetCool': {
        const cool = num('coolCelsius');
        if (cool === undefined) return invalid('Invalid value for coolCelsius.');
        if (setpoint('COOL')) return;
        state.coolCelsius = cool;
        return json(response, 200, {});
      }
      case 'sdm.devices.commands.ThermostatTemperatureSetpoint.SetRange': {
        const heat = num('heatCelsius');
        const cool = num('coolCelsius');
        if (heat === undefined || cool === undefined || heat > cool) return invalid('Invalid range.');
        if (setpoint('HEATCOOL')) return;
        state.heatCelsius = heat;
        state.coolCelsius = cool;
        return json(response, 200, {});
      }
      case 'sdm.devices.commands.ThermostatMode.SetMode': {
        const mode = p.mode;
        if (mode !== 'HEAT' && mode !== 'COOL' && mode !== 'HEATCOOL' && mode !== 'OFF') {
          return invalid('Invalid value for mode.');
        }
        state.mode = mode;
        return json(response, 200, {});
      }
      case 'sdm.devices.commands.ThermostatEco.SetMode': {
        const mode = p.mode;
        if (mode !== 'MANUAL_ECO' && mode !== 'OFF') return invalid('Invalid value for mode.');
        state.eco.mode = mode;
        return json(response, 200, {});
      }
      default:
        return googleError(response, 404, 'NOT_FOUND', 'Command not found.');
    }
  }

  function google(request: IncomingMessage, url: URL, body: Buffer, response: ServerResponse) {
    if (url.pathname === '/google/oauth/token' && request.method === 'POST') {
      return googleToken(new URLSearchParams(body.toString()), response);
    }
    const list = /^\/google\/sdm\/v1\/enterprises\/([^/]+)\/devices$/.exec(url.pathname);
    const match = /^\/google\/sdm\/v1\/enterprises\/([^/]+)\/devices\/([^/:]+)(:executeCommand)?$/.exec(
      url.pathname,
    );
    if (!match && !list) return googleError(response, 404, 'NOT_FOUND', 'Not found.');
    if (!googleTokens.valid(bearer(request))) {
      return googleError(response, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    }
    if (list) {
      const project = decodeURIComponent(list[1] ?? '');
      if (request.method !== 'GET')
        return googleError(response, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed.');
      if (project !== LOCAL_CREDENTIALS.nest.projectId)
        return googleError(response, 404, 'NOT_FOUND', 'Enterprise not found.');
      const now = Date.now();
      listedAt = listedAt.filter((at) => now - at < 60_000);
      if (listedAt.length >= SDM_LIST_PER_MINUTE)
        return googleError(response, 429, 'RESOURCE_EXHAUSTED', 'Rate limited.');
      listedAt.push(now);
      counters.lists++;
      return json(response, 200, {
        devices: [...nestDevices].map(([id, state]) => nestDevice(project, id, state)),
      });
    }
    if (!match) return googleError(response, 404, 'NOT_FOUND', 'Not found.');
    const [, project = '', id = '', execute] = match;
    const state = nestDevices.get(decodeURIComponent(id));
    if (decodeURIComponent(project) !== LOCAL_CREDENTIALS.nest.projectId || !state) {
      return googleError(response, 404, 'NOT_FOUND', 'Device not found.');
    }
    if (execute && request.method === 'POST') return nestCommand(state, parse(body), response);
    if (!execute && request.method === 'GET') return json(response, 200, nestDevice(project, id, state));
    return googleError(response, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed.');
  }

  return { handle: google satisfies VendorHandler, devices: nestDevices, tokens: googleTokens, counters };
}
