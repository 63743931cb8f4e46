import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEMO_VENDOR_IDS, LOCAL_CREDENTIALS } from './credentials';
import { bearer, json, parse, type VendorHandler } from './http';

/** Ryse SmartBridge REST: shades and their positions. */

export interface RyseState {
  name: string;
  position: number;
}

export function ryseStandin() {
  const shades = new Map<string, RyseState>([[DEMO_VENDOR_IDS.ryse, { name: 'Lobby', position: 40 }]]);

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

  return { handle: ryse satisfies VendorHandler, shades };
}
