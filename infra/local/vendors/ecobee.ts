import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEMO_VENDOR_IDS, LOCAL_CREDENTIALS } from './credentials';
import { ACCESS_TOKEN_SECONDS, AccessTokens, bearer, json, parse, type VendorHandler } from './http';

/** Ecobee API v1: thermostats, with rotating refresh tokens (a refresh token is spent when used). */

/** Ecobee's units: tenths of °F. */
export interface EcobeeState {
  name: string;
  actualTemperature: number;
  actualHumidity: number;
  desiredHeat: number;
  desiredCool: number;
  desiredHeatRange: [number, number];
  desiredCoolRange: [number, number];
  hvacMode: 'auto' | 'auxHeatOnly' | 'cool' | 'heat' | 'off';
  hold: { holdType: string; holdClimateRef: string } | undefined;
}

export const defaultEcobeeState = (): EcobeeState => ({
  name: 'Office',
  actualTemperature: 716,
  actualHumidity: 43,
  desiredHeat: 698,
  desiredCool: 752,
  desiredHeatRange: [450, 790],
  desiredCoolRange: [650, 920],
  hvacMode: 'cool',
  hold: undefined,
});

/** Ecobee's limit of thermostat ids in one selection (status 6 beyond). */
export const ECOBEE_SELECTION_LIMIT = 25;

export function ecobeeStandin() {
  const ecobeeDevices = new Map<string, EcobeeState>([[DEMO_VENDOR_IDS.ecobee, defaultEcobeeState()]]);
  const ecobeeTokens = new AccessTokens();
  const counters = { refreshes: 0 };
  let ecobeeRefreshToken = LOCAL_CREDENTIALS.ecobee.refreshToken;

  // Ecobee.
  const ecobeeStatus = (response: ServerResponse, httpStatus: number, code: number, message: string) =>
    json(response, httpStatus, { status: { code, message } });

  function ecobeeThermostat(id: string, state: EcobeeState, selection: Record<string, unknown>) {
    return {
      identifier: id,
      name: state.name,
      thermostatRev: '241122000000',
      isRegistered: true,
      modelNumber: 'athenaSmart',
      ...(selection.includeRuntime
        ? {
            runtime: {
              connected: true,
              actualTemperature: state.actualTemperature,
              actualHumidity: state.actualHumidity,
              desiredHeat: state.desiredHeat,
              desiredCool: state.desiredCool,
              desiredHumidity: 36,
              desiredFanMode: 'auto',
              desiredHeatRange: state.desiredHeatRange,
              desiredCoolRange: state.desiredCoolRange,
            },
          }
        : {}),
      ...(selection.includeSettings ? { settings: { hvacMode: state.hvacMode, heatCoolMinDelta: 50 } } : {}),
      ...(selection.includeEvents
        ? {
            events: state.hold
              ? [
                  {
                    type: 'hold',
                    name: 'auto',
                    running: true,
                    holdClimateRef: state.hold.holdClimateRef,
                    heatHoldTemp: state.desiredHeat,
                    coolHoldTemp: state.desiredCool,
                    isTemperatureAbsolute: true,
                  },
                ]
              : [],
          }
        : {}),
    };
  }

  function ecobeeUpdate(body: unknown, response: ServerResponse) {
    const { selection, functions, thermostat } = (body ?? {}) as {
      selection?: { selectionType?: string; selectionMatch?: string };
      functions?: { type?: string; params?: Record<string, unknown> }[];
      thermostat?: { settings?: { hvacMode?: string } };
    };
    if (selection?.selectionType !== 'thermostats')
      return ecobeeStatus(response, 500, 9, 'Invalid selection.');
    const ids = (selection.selectionMatch ?? '').split(',');
    if (ids.length > ECOBEE_SELECTION_LIMIT)
      return ecobeeStatus(response, 500, 6, 'Too many thermostat in selection match criteria.');
    const targets = ids.map((id) => ecobeeDevices.get(id));
    if (targets.some((t) => !t)) return ecobeeStatus(response, 500, 2, 'Not authorized.');
    for (const state of targets as EcobeeState[]) {
      for (const fn of functions ?? []) {
        if (fn.type !== 'setHold') return ecobeeStatus(response, 500, 8, 'Invalid function.');
        const heat = fn.params?.heatHoldTemp;
        const cool = fn.params?.coolHoldTemp;
        if (typeof heat !== 'number' || typeof cool !== 'number') {
          return ecobeeStatus(response, 500, 7, 'Validation error. Hold temperatures are required.');
        }
        const [hMin, hMax] = state.desiredHeatRange;
        const [cMin, cMax] = state.desiredCoolRange;
        if (heat < hMin || heat > hMax || cool < cMin || cool > cMax) {
          return ecobeeStatus(response, 500, 7, 'Validation error. Hold temperature is out of range.');
        }
        state.desiredHeat = heat;
        state.desiredCool = cool;
        state.hold = { holdType: String(fn.params?.holdType ?? 'nextTransition'), holdClimateRef: '' };
      }
      const mode = thermostat?.settings?.hvacMode;
      if (mode !== undefined) {
        if (!['auto', 'auxHeatOnly', 'cool', 'heat', 'off'].includes(mode)) {
          return ecobeeStatus(response, 500, 7, 'Validation error. Invalid hvacMode.');
        }
        state.hvacMode = mode as EcobeeState['hvacMode'];
      }
    }
    return ecobeeStatus(response, 200, 0, '');
  }

  function ecobee(request: IncomingMessage, url: URL, body: Buffer, response: ServerResponse) {
    if (url.pathname === '/ecobee/token' && request.method === 'POST') {
      const q = url.searchParams;
      if (q.get('client_id') !== LOCAL_CREDENTIALS.ecobee.apiKey) {
        return json(response, 401, { error: 'invalid_client', error_description: 'Invalid client.' });
      }
      if (q.get('grant_type') !== 'refresh_token' || q.get('code') !== ecobeeRefreshToken) {
        return json(response, 400, {
          error: 'invalid_grant',
          error_description: 'The refresh token is invalid.',
        });
      }
      counters.refreshes++;
      // Ecobee rotates: the refresh token just used is spent.
      ecobeeRefreshToken = `local-ecobee-refresh-${counters.refreshes}-${randomBytes(6).toString('hex')}`;
      return json(response, 200, {
        access_token: ecobeeTokens.issue('local-ecobee-access-'),
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_SECONDS - 1,
        refresh_token: ecobeeRefreshToken,
        scope: 'smartWrite',
      });
    }
    if (url.pathname !== '/ecobee/1/thermostat')
      return ecobeeStatus(response, 404, 5, 'Invalid request format.');
    const token = bearer(request);
    if (!ecobeeTokens.known(token)) {
      return ecobeeStatus(response, 500, 1, 'Authentication failed.');
    }
    if (!ecobeeTokens.valid(token)) {
      return ecobeeStatus(
        response,
        500,
        14,
        'Authentication token has expired. Refresh your tokens. Please refer to our documentation.',
      );
    }
    if (request.method === 'POST') return ecobeeUpdate(parse(body), response);
    const selection = (
      (parse(url.searchParams.get('body') ?? '') ?? {}) as { selection?: Record<string, unknown> }
    ).selection;
    if (!selection || selection.selectionType !== 'thermostats') {
      return ecobeeStatus(response, 500, 9, 'Invalid selection.');
    }
    const ids = String(selection.selectionMatch ?? '').split(',');
    if (ids.length > ECOBEE_SELECTION_LIMIT)
      return ecobeeStatus(response, 500, 6, 'Too many thermostat in selection match criteria.');
    const list = ids.flatMap((id) => {
      const state = ecobeeDevices.get(id);
      return state ? [ecobeeThermostat(id, state, selection)] : [];
    });
    return json(response, 200, {
      page: { page: 1, totalPages: 1, pageSize: list.length, total: list.length },
      thermostatList: list,
      status: { code: 0, message: '' },
    });
  }

  return {
    handle: ecobee satisfies VendorHandler,
    devices: ecobeeDevices,
    tokens: ecobeeTokens,
    counters,
    refreshToken: () => ecobeeRefreshToken,
  };
}
