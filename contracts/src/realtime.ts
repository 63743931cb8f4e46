/**
 * How a browser (or any script) opens the real-time channel. It first asks the API for a connection
 * token (`POST /api/realtimeToken` with its client id and the organizations it watches), then connects
 * over MQTT/WebSocket with the MQTT user name
 * `{base}?x-amz-customauthorizer-name={authorizer}&x-amz-customauthorizer-signature={signature}&token={token}`
 * (`realtimeUsername`). IoT Core verifies the signature with the authorizer's public key before it
 * invokes the authorizer Lambda, so junk connection attempts never reach it; the local broker does the
 * same. The token names the user, their session, the client id and the organizations, and lasts as
 * long as a connection may (24 h): the authorizer re-checks it against the user record every 5 minutes.
 */

/** The call that mints a connection token. */
export const REALTIME_TOKEN_PATH = '/api/realtimeToken';

/**
 * At most this many organizations per connection. The browser subscribes to two topics per
 * organization and one floor: 16 x 2 + 1 stays within IoT Core's 50 subscriptions per connection, and
 * the policy within 10 documents of 2,048 characters (domain/realtime/policy.ts). A user of more
 * organizations watches the open floor's and then the first ones; the API answers everything else.
 */
export const REALTIME_MAX_ORGS = 16;

/**
 * IoT Core takes one MQTT CONNECT a second for a client id ("Connect requests per second per client
 * ID: 1", not adjustable; AWS General Reference, AWS IoT Core quotas): a page's channel spaces its
 * connects at least this far apart, and the local broker refuses a closer one.
 */
export const REALTIME_CONNECT_INTERVAL_MS = 1000;

/** The query parameter of the MQTT user name that carries the connection token (the authorizer's token key name). */
export const REALTIME_TOKEN_KEY_NAME = 'token';
/** IoT Core's query parameters naming the custom authorizer and the token's signature. */
export const AUTHORIZER_NAME_PARAM = 'x-amz-customauthorizer-name';
export const AUTHORIZER_SIGNATURE_PARAM = 'x-amz-customauthorizer-signature';

/** The answer of `POST /api/realtimeToken`. */
export interface RealtimeTokenView {
  /** base64url text; present it as the `token` parameter of the MQTT user name. */
  token: string;
  /** base64 RSA-SHA256 signature of the token, checked by IoT Core before the authorizer runs. */
  signature: string;
  /** The client id the token is bound to (`web-<uuid>`). */
  clientId: string;
  /** The organizations the connection may receive from. */
  orgIds: string[];
  /** Epoch seconds: the token is refused after this (a connection lasts at most 24 h anyway). */
  expiresAt: number;
}

/**
 * The MQTT user name that presents a connection token: the configured base (on AWS
 * `browser?x-amz-customauthorizer-name={name}`, locally any name) with the signature and the token
 * appended as URL-encoded query parameters.
 */
export function realtimeUsername(
  base: string,
  grant: Pick<RealtimeTokenView, 'token' | 'signature'>,
): string {
  const query = new URLSearchParams({
    [AUTHORIZER_SIGNATURE_PARAM]: grant.signature,
    [REALTIME_TOKEN_KEY_NAME]: grant.token,
  }).toString();
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

/** The query parameters of an MQTT user name (what IoT Core reads the authorizer, token and signature from). */
export function usernameParams(username: string | undefined): URLSearchParams {
  const at = username?.indexOf('?') ?? -1;
  return new URLSearchParams(at >= 0 && username ? username.slice(at + 1) : '');
}

/** The answers of `POST /api/realtimeToken` to a request it refuses (400; 404 for an organization). */
export const REALTIME_TEXTS = {
  badClientId: 'A real-time client id is web- followed by a UUID.',
  unknownOrganization: 'Organization not found.',
  noOrganization: 'You belong to no organization: there is nothing to receive.',
} as const;
