import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { IntegrationSettings } from '@argentum/functions/environment';
import { HOST } from './config';
import { close, listen, readBody } from './http-util';
import { LOCAL_CREDENTIALS, localSecretIds } from './vendors/credentials';
import { defaultEcobeeState, ecobeeStandin, type EcobeeState } from './vendors/ecobee';
import { json, parse } from './vendors/http';
import { defaultNestState, nestStandin, type NestState } from './vendors/nest';
import { ryseStandin, type RyseState } from './vendors/ryse';
import { secretsManagerStandin } from './vendors/secrets-manager';

/**
 * Stand-ins for the third-party clouds the integrations function calls, at the vendors' API shapes,
 * with state kept in memory (a set point is reflected in later reads), and for AWS Secrets Manager,
 * where the function finds their credentials. One HTTP server, a path prefix per vendor (each in `vendors/`):
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

export interface VendorStandins {
  url: string;
  server: Server;
  /** The settings the integrations function runs with locally. */
  settings: IntegrationSettings;
  /** AWS_ENDPOINT_URL_SECRETS_MANAGER. */
  secretsEndpoint: string;
  stop(): Promise<void>;
}

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
  const nest = nestStandin();
  const ecobee = ecobeeStandin();
  const ryse = ryseStandin();
  const secretsManager = secretsManagerStandin({
    ...Object.fromEntries(
      (Object.keys(localSecretIds) as StandinVendor[]).map((vendor) => [
        localSecretIds[vendor],
        JSON.stringify(LOCAL_CREDENTIALS[vendor]),
      ]),
    ),
    ...platformSecrets,
  });

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
        if (!vendor || vendor === 'nest') nest.tokens.expireAll();
        if (!vendor || vendor === 'ecobee') ecobee.tokens.expireAll();
        return json(response, 200, {});
      }
      case '/_standin/devices': {
        const id = String(input.id ?? '');
        if (!id) return json(response, 400, { error: 'id' });
        if (vendor === 'nest')
          nest.devices.set(id, { ...defaultNestState(), ...(input.state as Partial<NestState>) });
        else if (vendor === 'ecobee')
          ecobee.devices.set(id, { ...defaultEcobeeState(), ...(input.state as Partial<EcobeeState>) });
        else if (vendor === 'ryse')
          ryse.shades.set(id, { name: id, position: 0, ...(input.state as Partial<RyseState>) });
        else return json(response, 400, { error: 'vendor' });
        return json(response, 200, {});
      }
      case '/_standin/state':
        return json(response, 200, {
          behaviour,
          counters: { googleRefreshes: nest.counters.refreshes, ecobeeRefreshes: ecobee.counters.refreshes },
          ecobeeRefreshToken: ecobee.refreshToken(),
          nest: Object.fromEntries(nest.devices),
          ecobee: Object.fromEntries(ecobee.devices),
          ryse: Object.fromEntries(ryse.shades),
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
          return secretsManager.handle(target, body, response);
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
        return { nest, ecobee, ryse }[vendor].handle(request, url, body, response);
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
