import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { ApiEvent } from './types';

/**
 * Behind CloudFront, API Gateway's `sourceIp` is the edge's address, shared by many browsers. The
 * distribution (infra/cdk/constructs/web-hosting.ts) therefore adds two headers to every API request:
 * a viewer-request function puts the viewer's address into `VIEWER_ADDRESS_HEADER` (replacing any the
 * browser sent), and the origin adds `ORIGIN_SECRET_HEADER` with a secret only CloudFront and the API
 * Lambdas know (ORIGIN_SECRET). The viewer address is believed only with that secret: a request sent
 * to the API Gateway endpoint directly has no CloudFront in front, so its `sourceIp` is its client.
 */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';
export const ORIGIN_SECRET_HEADER = 'x-origin-verify';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares in constant time (of the digests), so the answer's timing tells nothing of the secret. */
const sameSecret = (presented: string, secret: string) => timingSafeEqual(digest(presented), digest(secret));

/** Whether the request carries CloudFront's origin secret (never, when no secret is configured). */
export function cameThroughCloudFront(event: ApiEvent, originSecret: string | undefined): boolean {
  const presented = event.headers[ORIGIN_SECRET_HEADER];
  return !!originSecret && presented !== undefined && sameSecret(presented, originSecret);
}

/**
 * The client's address: the viewer's as CloudFront saw it when the request provably came through
 * CloudFront, API Gateway's `sourceIp` otherwise (and always when no origin secret is configured).
 */
export function clientAddress(event: ApiEvent, originSecret: string | undefined): string {
  const sourceIp = event.requestContext.http.sourceIp;
  if (!cameThroughCloudFront(event, originSecret)) return sourceIp;
  const viewer = event.headers[VIEWER_ADDRESS_HEADER]?.trim();
  return viewer && isIP(viewer) !== 0 ? viewer : sourceIp;
}
