import * as z from 'zod/mini';
import { vendorError } from '../../domain/integrations/errors';
import type { RyseShades, SecretStore } from '../../domain/integrations/ports';
import { readCredentials } from './credentials';
import { type Fetch, isVendorOutage, type VendorResponse, vendorRequest } from './http';

/**
 * Ryse SmartShades through the REST interface of the Ryse SmartBridge, reached at the installation's
 * base URL (the secret's `bridgeUrl`, or RYSE_API_URL) with a bearer token issued by the bridge. The shape this adapter speaks:
 * - GET {api}/v1/shades/{shadeId} -> 200 {id, name, position, battery?, online?};
 * - PUT {api}/v1/shades/{shadeId}/position {position} -> 200 {id, position}, the target position it
 *   accepted (the motor then moves; a later GET reports where it is);
 * - position is 0 (open) to 100 (closed), an integer; 401 bad token, 404 unknown shade,
 *   400 {error} refused, 5xx bridge or cloud failure.
 * The token does not expire (no refresh); only this file knows the shape.
 */

export const ryseSecretSchema = z.lazy(() =>
  z.object({
    token: z.string().check(z.minLength(1)),
    bridgeUrl: z.optional(z.url()),
  }),
);

export interface RyseAdapterOptions {
  fetch: Fetch;
  secrets: SecretStore;
  secretId: string;
  timeoutMs: number;
  /** Overrides the secret's bridgeUrl (the local stand-in). */
  apiUrl?: string | undefined;
}

const shadeSchema = z.lazy(() => z.object({ position: z.number().check(z.minimum(0), z.maximum(100)) }));
const errorSchema = z.lazy(() => z.object({ error: z.string() }));

export function createRyseAdapter(options: RyseAdapterOptions): RyseShades {
  const http = { vendor: 'ryse' as const, fetch: options.fetch, timeoutMs: options.timeoutMs };

  async function call(shadeId: string, suffix: string, init: RequestInit): Promise<number> {
    const { token, bridgeUrl } = await readCredentials(
      options.secrets,
      options.secretId,
      ryseSecretSchema,
      'ryse',
    );
    const apiUrl = options.apiUrl ?? bridgeUrl?.replace(/\/+$/, '');
    if (!apiUrl) throw vendorError('ryse', 'unauthorized');
    const response: VendorResponse = await vendorRequest(
      http,
      `${apiUrl}/v1/shades/${encodeURIComponent(shadeId)}${suffix}`,
      { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } },
    );
    if (response.status === 200) {
      const shade = shadeSchema.safeParse(response.json);
      if (!shade.success) throw vendorError('ryse', 'unavailable');
      return shade.data.position;
    }
    if (response.status === 401 || response.status === 403) throw vendorError('ryse', 'unauthorized');
    if (response.status === 404) throw vendorError('ryse', 'unknown-device');
    if (isVendorOutage(response.status)) throw vendorError('ryse', 'unavailable');
    const error = errorSchema.safeParse(response.json);
    throw vendorError('ryse', 'refused', error.success ? error.data.error : undefined);
  }

  return {
    getPosition: (shadeId) => call(shadeId, '', { method: 'GET' }),
    setPosition: (shadeId, position) =>
      call(shadeId, '/position', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ position }),
      }),
  };
}
