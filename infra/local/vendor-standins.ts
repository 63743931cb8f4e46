import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { IntegrationSettings } from '@argentum/functions/environment';
import { HOST } from './config';
import { close, listen, readBody } from './http-util';

/**
 * Stand-ins for the third-party clouds the integrations function calls, at the vendors' API shapes,
 * with state kept in memory (a set point is reflected in later reads), and for AWS Secrets Manager,
 * where the function finds their credentials. One HTTP server, a path prefix per vendor:
 * - /google/oauth/token                                       Google OAuth 2.0 token endpoint
 * - /google/sdm/v1/enterprises/{p}/devices/{d}[:executeCommand] Smart Device Management API
 * - /ecobee/token, /ecobee/1/thermostat                       Ecobee API v1 (rotating refresh tokens)
 * - /ryse/v1/shades/{id}[/position]                           Ryse SmartBridge REST
 * - any POST with X-Amz-Target: secretsmanager.*              GetSecretValue, PutSecretValue
 * Tests steer it through /_standin/* (outages, token expiry, devices of their own).
 */

export type StandinVendor = 'ryse' | 'nest' | 'ecobee';
/** ok; hang: accept the request and never answer; fail: 503; reset: drop the connection. */
export type Behaviour = 'ok' | 'hang' | 'fail' | 'reset';

/** The credentials the stand-ins accept, as the local secrets hold them. */
export const LOCAL_CREDENTIALS = {
  nest: {
    projectId: 'local-device-access-project',
    clientId: 'local-google-client.apps.googleusercontent.com',
    clientSecret: 'local-google-client-secret',
    refreshToken: '1//local-google-refresh-token',
  },
  ecobee: { apiKey: 'localEcobeeApiKey0123456789abcd', refreshToken: 'local-ecobee-refresh-0' },
  ryse: { token: 'local-ryse-bridge-token' },
};

/** The vendor ids of the demo devices (infra/local/demo-data.ts links them in properties). */
export const DEMO_VENDOR_IDS = {
  ryse: 'ryse-demo-lobby',
  nest: 'nest-demo-focus',
  ecobee: '411900000001',
};

export const localSecretIds = {
  ryse: 'argentum/local/integrations/ryse',
  nest: 'argentum/local/integrations/nest',
  ecobee: 'argentum/local/integrations/ecobee',
};

interface NestState {
  ambientTemperatureCelsius: number;
  ambientHumidityPercent: number;
  mode: 'HEAT' | 'COOL' | 'HEATCOOL' | 'OFF';
  eco: { mode: 'MANUAL_ECO' | 'OFF'; heatCelsius: number; coolCelsius: number };
  heatCelsius: number;
  coolCelsius: number;
}

/** Ecobee's units: tenths of °F. */
interface EcobeeState {
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

interface RyseState {
  name: string;
  position: number;
}

export const defaultNestState = (): NestState => ({
  ambientTemperatureCelsius: 22.5,
  ambientHumidityPercent: 41,
  mode: 'COOL',
  eco: { mode: 'OFF', heatCelsius: 17, coolCelsius: 26 },
  heatCelsius: 20,
  coolCelsius: 23,
});

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

export interface VendorStandins {
  url: string;
  server: Server;
  /** The settings the integrations function runs with locally. */
  settings: IntegrationSettings;
  /** AWS_ENDPOINT_URL_SECRETS_MANAGER. */
  secretsEndpoint: string;
  stop(): Promise<void>;
}

const ACCESS_TOKEN_SECONDS = 3600;

/** The secret holding the real-time token-signing key locally (the stack puts a fresh key in it). */
export const LOCAL_REALTIME_SIGNING_SECRET_ID = 'argentum/local/realtime-signing-key';
/** The secret holding the floor plan URL signing key locally (the stack puts a fresh key in it). */
export const LOCAL_PLAN_SIGNING_SECRET_ID = 'argentum/local/plan-signing-key';

/** `platformSecrets`: further secrets the stand-in holds from the start (name -> value). */
export async function startVendorStandins(
  port = 0,
  platformSecrets: Record<string, string> = {},
): Promise<VendorStandins> {
  const behaviour: Record<StandinVendor, Behaviour> = { ryse: 'ok', nest: 'ok', ecobee: 'ok' };
  const nestDevices = new Map<string, NestState>([[DEMO_VENDOR_IDS.nest, defaultNestState()]]);
  const ecobeeDevices = new Map<string, EcobeeState>([[DEMO_VENDOR_IDS.ecobee, defaultEcobeeState()]]);
  const shades = new Map<string, RyseState>([[DEMO_VENDOR_IDS.ryse, { name: 'Lobby', position: 40 }]]);
  /** Access tokens issued, with their expiry (epoch ms). */
  const googleTokens = new Map<string, number>();
  const ecobeeTokens = new Map<string, number>();
  let ecobeeRefreshToken = LOCAL_CREDENTIALS.ecobee.refreshToken;
  const counters = { googleRefreshes: 0, ecobeeRefreshes: 0 };
  const secrets = new Map<string, { value: string; versionId: string }>(
    (Object.keys(localSecretIds) as StandinVendor[]).map((vendor) => [
      localSecretIds[vendor],
      { value: JSON.stringify(LOCAL_CREDENTIALS[vendor]), versionId: randomUUID() },
    ]),
  );
  for (const [name, value] of Object.entries(platformSecrets))
    secrets.set(name, { value, versionId: randomUUID() });

  const json = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const bearer = (request: IncomingMessage) => /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const issue = (tokens: Map<string, number>, prefix: string) => {
    const token = `${prefix}${randomBytes(12).toString('hex')}`;
    tokens.set(token, Date.now() + ACCESS_TOKEN_SECONDS * 1000);
    return token;
  };
  const valid = (tokens: Map<string, number>, token: string | undefined) =>
    token !== undefined && (tokens.get(token) ?? 0) > Date.now();

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
    counters.googleRefreshes++;
    return json(response, 200, {
      access_token: issue(googleTokens, 'ya29.local-'),
      expires_in: ACCESS_TOKEN_SECONDS - 1,
      scope: 'https://www.googleapis.com/auth/sdm.service',
      token_type: 'Bearer',
    });
  }

  function nestDevice(project: string, id: string, state: NestState) {
    // Like a real thermostat the room drifts towards the set point in force.
    const target =
      state.eco.mode === 'MANUAL_ECO'
        ? undefined
        : state.mode === 'HEAT'
          ? state.heatCelsius
          : state.mode === 'COOL'
            ? state.coolCelsius
            : undefined;
    if (target !== undefined && state.ambientTemperatureCelsius !== target) {
      const step = Math.sign(target - state.ambientTemperatureCelsius) * 0.1;
      state.ambientTemperatureCelsius = Math.round((state.ambientTemperatureCelsius + step) * 10) / 10;
    }
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
    const match = /^\/google\/sdm\/v1\/enterprises\/([^/]+)\/devices\/([^/:]+)(:executeCommand)?$/.exec(
      url.pathname,
    );
    if (!match) return googleError(response, 404, 'NOT_FOUND', 'Not found.');
    if (!valid(googleTokens, bearer(request))) {
      return googleError(response, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    }
    const [, project = '', id = '', execute] = match;
    const state = nestDevices.get(decodeURIComponent(id));
    if (decodeURIComponent(project) !== LOCAL_CREDENTIALS.nest.projectId || !state) {
      return googleError(response, 404, 'NOT_FOUND', 'Device not found.');
    }
    if (execute && request.method === 'POST') return nestCommand(state, parse(body), response);
    if (!execute && request.method === 'GET') return json(response, 200, nestDevice(project, id, state));
    return googleError(response, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed.');
  }

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
    const targets = (selection.selectionMatch ?? '').split(',').map((id) => ecobeeDevices.get(id));
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
      counters.ecobeeRefreshes++;
      // Ecobee rotates: the refresh token just used is spent.
      ecobeeRefreshToken = `local-ecobee-refresh-${counters.ecobeeRefreshes}-${randomBytes(6).toString('hex')}`;
      return json(response, 200, {
        access_token: issue(ecobeeTokens, 'local-ecobee-access-'),
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_SECONDS - 1,
        refresh_token: ecobeeRefreshToken,
        scope: 'smartWrite',
      });
    }
    if (url.pathname !== '/ecobee/1/thermostat')
      return ecobeeStatus(response, 404, 5, 'Invalid request format.');
    const token = bearer(request);
    if (token === undefined || !ecobeeTokens.has(token)) {
      return ecobeeStatus(response, 500, 1, 'Authentication failed.');
    }
    if (!valid(ecobeeTokens, token)) {
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

  // Ryse SmartBridge.
  function ryse(request: IncomingMessage, url: URL, body: Buffer, response: ServerResponse) {
    const match = /^\/ryse\/v1\/shades\/([^/]+)(\/position)?$/.exec(url.pathname);
    if (!match) return json(response, 404, { error: 'not_found' });
    if (bearer(request) !== LOCAL_CREDENTIALS.ryse.token)
      return json(response, 401, { error: 'unauthorized' });
    const id = decodeURIComponent(match[1] ?? '');
    const shade = shades.get(id);
    if (!shade) return json(response, 404, { error: 'not_found' });
    if (match[2] && request.method === 'PUT') {
      const position = (parse(body) as { position?: unknown } | undefined)?.position;
      if (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position > 100) {
        return json(response, 400, { error: 'position must be an integer from 0 to 100' });
      }
      shade.position = position;
      return json(response, 200, { id, position });
    }
    if (!match[2] && request.method === 'GET') {
      return json(response, 200, {
        id,
        name: shade.name,
        position: shade.position,
        battery: 87,
        online: true,
      });
    }
    return json(response, 405, { error: 'method_not_allowed' });
  }

  // AWS Secrets Manager (JSON 1.1 protocol).
  function secretsManager(target: string, body: Buffer, response: ServerResponse) {
    const input = (parse(body) ?? {}) as { SecretId?: string; SecretString?: string };
    const awsError = (type: string, message: string) =>
      json(
        response,
        400,
        { __type: type, message },
        { 'x-amzn-errortype': type, 'content-type': 'application/x-amz-json-1.1' },
      );
    const name = input.SecretId ?? '';
    const arn = `arn:aws:secretsmanager:us-east-1:000000000000:secret:${name}-local`;
    const secret = secrets.get(name);
    if (target === 'secretsmanager.GetSecretValue') {
      if (!secret)
        return awsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      return json(response, 200, {
        ARN: arn,
        Name: name,
        SecretString: secret.value,
        VersionId: secret.versionId,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: Date.now() / 1000,
      });
    }
    if (target === 'secretsmanager.PutSecretValue') {
      if (!secret)
        return awsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      if (typeof input.SecretString !== 'string')
        return awsError('InvalidParameterException', 'SecretString is required.');
      const versionId = randomUUID();
      secrets.set(name, { value: input.SecretString, versionId });
      return json(response, 200, {
        ARN: arn,
        Name: name,
        VersionId: versionId,
        VersionStages: ['AWSCURRENT'],
      });
    }
    return awsError('InvalidRequestException', `${target} is not supported here.`);
  }

  // Control, for tests and developers.
  function control(url: URL, body: Buffer, response: ServerResponse) {
    const input = (parse(body) ?? {}) as Record<string, unknown>;
    const vendor = input.vendor as StandinVendor | undefined;
    switch (url.pathname) {
      case '/_standin/behaviour': {
        if (!vendor || !(vendor in behaviour)) return json(response, 400, { error: 'vendor' });
        behaviour[vendor] = (input.behaviour as Behaviour | undefined) ?? 'ok';
        return json(response, 200, { behaviour });
      }
      case '/_standin/expire-tokens': {
        const expire = (tokens: Map<string, number>) => {
          for (const token of tokens.keys()) tokens.set(token, Date.now() - 1);
        };
        if (!vendor || vendor === 'nest') expire(googleTokens);
        if (!vendor || vendor === 'ecobee') expire(ecobeeTokens);
        return json(response, 200, {});
      }
      case '/_standin/devices': {
        const id = String(input.id ?? '');
        if (!id) return json(response, 400, { error: 'id' });
        if (vendor === 'nest')
          nestDevices.set(id, { ...defaultNestState(), ...(input.state as Partial<NestState>) });
        else if (vendor === 'ecobee')
          ecobeeDevices.set(id, { ...defaultEcobeeState(), ...(input.state as Partial<EcobeeState>) });
        else if (vendor === 'ryse')
          shades.set(id, { name: id, position: 0, ...(input.state as Partial<RyseState>) });
        else return json(response, 400, { error: 'vendor' });
        return json(response, 200, {});
      }
      case '/_standin/state':
        return json(response, 200, {
          behaviour,
          counters,
          ecobeeRefreshToken,
          nest: Object.fromEntries(nestDevices),
          ecobee: Object.fromEntries(ecobeeDevices),
          ryse: Object.fromEntries(shades),
        });
      default:
        return json(response, 404, { error: 'not_found' });
    }
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    readBody(request, 256 * 1024)
      .then((body) => {
        const target = request.headers['x-amz-target'];
        if (typeof target === 'string' && target.startsWith('secretsmanager.')) {
          return secretsManager(target, body, response);
        }
        if (url.pathname.startsWith('/_standin/')) return control(url, body, response);
        const vendor: StandinVendor | undefined = url.pathname.startsWith('/google/')
          ? 'nest'
          : url.pathname.startsWith('/ecobee/')
            ? 'ecobee'
            : url.pathname.startsWith('/ryse/')
              ? 'ryse'
              : undefined;
        if (!vendor) return json(response, 404, { error: 'not_found' });
        switch (behaviour[vendor]) {
          case 'hang':
            return; // The client's timeout ends it; stop() closes what is left.
          case 'reset':
            request.socket.destroy();
            return;
          case 'fail':
            return json(response, 503, {
              error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' },
            });
          case 'ok':
            break;
        }
        if (vendor === 'nest') return google(request, url, body, response);
        if (vendor === 'ecobee') return ecobee(request, url, body, response);
        return ryse(request, url, body, response);
      })
      .catch(() => json(response, 413, { error: 'too_large' }));
  });
  await listen(server, port, HOST);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The vendor stand-ins have no address');
  const url = `http://${HOST}:${address.port}`;
  return {
    url,
    server,
    secretsEndpoint: url,
    settings: {
      secretIds: localSecretIds,
      urls: {
        ryse: `${url}/ryse`,
        nest: `${url}/google/sdm`,
        googleOauth: `${url}/google/oauth`,
        ecobee: `${url}/ecobee`,
      },
    },
    stop: () => close(server),
  };
}

function parse(body: Buffer | string): unknown {
  try {
    const text = body.toString();
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
