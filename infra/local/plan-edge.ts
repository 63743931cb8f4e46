import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GetObjectCommand, S3ServiceException } from '@aws-sdk/client-s3';
import { s3 } from '@argentum/functions/aws/s3';
import { config } from '@argentum/functions/config';
import { FLOOR_PLAN_PREFIX } from '@argentum/functions/domain/files/keys';
import { FLOOR_PLAN_CONTENT_SECURITY_POLICY } from '../src/content-security-policy';

/**
 * The local twin of the distribution's floor plan behaviour (CDK: constructs/web-hosting.ts): GET
 * /floorplans/* on the app's origin is served from the files bucket only with a valid CloudFront
 * signed URL (canned policy) of a key in the key group, before its expiry; the answer carries the
 * plans' response headers policy. Anything else gets CloudFront's 403, as on AWS.
 */

/** The path the plans behaviour matches: the files bucket's plan prefix, served under the same path. */
export const PLAN_PATH_PREFIX = `/${FLOOR_PLAN_PREFIX}`;

/** The headers the plans behaviour's response headers policy adds (the same values as in CDK). */
const PLAN_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': FLOOR_PLAN_CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** The query parameters CloudFront reads a signed URL's policy and signature from. */
const SIGNING_PARAMETERS = new Set(['Expires', 'Policy', 'Signature', 'Key-Pair-Id', 'Hash-Algorithm']);

/** A key pair as the stack makes it, with a CloudFront-style public key id. */
export interface PlanSigningKeys {
  keyPairId: string;
  privateKeyPem: string;
  publicKey: KeyObject;
}

export function makePlanSigningKeys(): PlanSigningKeys {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    keyPairId: `K${randomBytes(8).toString('hex').toUpperCase()}`,
    privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: createPublicKey(pair.privateKey),
  };
}

/** CloudFront's base64 for URLs: + = / become - _ ~. */
const fromUrlBase64 = (text: string) =>
  Buffer.from(text.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');

export type SignedUrlVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks a signed URL as CloudFront does for a behaviour with a trusted key group: the key pair id
 * names a key of the group, the signature (SHA-1, or SHA-256 with `Hash-Algorithm=SHA256`) is that
 * key's over the canned policy of this very URL (scheme, host, path and other query parameters), and
 * the policy has not expired. A custom policy (`Policy=`) is not issued by the platform and is refused.
 */
export function verifySignedUrl(url: URL, keys: ReadonlyMap<string, KeyObject>, now: Date): SignedUrlVerdict {
  const pairs = url.search
    .replace(/^\?/, '')
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    });
  const named = new Map<string, string>();
  for (const [name = '', value = ''] of pairs) {
    if (!SIGNING_PARAMETERS.has(name)) continue;
    if (named.has(name)) return { ok: false, reason: `${name} given twice` };
    try {
      named.set(name, decodeURIComponent(value));
    } catch {
      return { ok: false, reason: `malformed ${name}` };
    }
  }
  if (named.has('Policy')) return { ok: false, reason: 'custom policies are not issued' };
  const expires = named.get('Expires');
  const signature = named.get('Signature');
  const keyPairId = named.get('Key-Pair-Id');
  if (!expires || !signature || !keyPairId) return { ok: false, reason: 'missing signing parameters' };
  if (!/^\d{1,12}$/.test(expires)) return { ok: false, reason: 'malformed Expires' };
  const key = keys.get(keyPairId);
  if (!key) return { ok: false, reason: 'unknown key pair id' };
  const algorithm = named.get('Hash-Algorithm') ?? 'SHA1';
  if (algorithm !== 'SHA1' && algorithm !== 'SHA256') return { ok: false, reason: 'unknown hash algorithm' };
  const rest = pairs
    .filter(([name = '']) => !SIGNING_PARAMETERS.has(name))
    .map((pair) => pair.join('='))
    .join('&');
  const resource = `${url.origin}${url.pathname}${rest ? `?${rest}` : ''}`;
  const policy = JSON.stringify({
    Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': Number(expires) } } }],
  });
  const signed = verify(
    algorithm === 'SHA256' ? 'RSA-SHA256' : 'RSA-SHA1',
    Buffer.from(policy, 'utf8'),
    key,
    fromUrlBase64(signature),
  );
  if (!signed) return { ok: false, reason: 'signature does not match' };
  if (now.getTime() >= Number(expires) * 1000) return { ok: false, reason: 'expired' };
  return { ok: true };
}

function refuse(response: ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { 'content-type': 'text/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

const statusOf = (error: unknown) =>
  error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;

/** The object's headers CloudFront passes on from S3. */
const PASSED_ON = ['ContentType', 'ContentDisposition', 'CacheControl', 'ETag', 'ContentLength'] as const;
const HEADER_OF: Record<(typeof PASSED_ON)[number], string> = {
  ContentType: 'content-type',
  ContentDisposition: 'content-disposition',
  CacheControl: 'cache-control',
  ETag: 'etag',
  ContentLength: 'content-length',
};

/**
 * Answers a request of the plans behaviour: the signature first (403 MissingKey / AccessDenied, as
 * CloudFront), then the object through the files bucket's own credentials (as origin access control
 * signs for CloudFront); a missing object is S3's 403 to an origin without list access.
 */
export async function servePlan(
  request: IncomingMessage,
  response: ServerResponse,
  keys: ReadonlyMap<string, KeyObject>,
  now: () => Date,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return refuse(
      response,
      403,
      'MethodNotAllowed',
      'This distribution is not configured to allow the HTTP request method',
    );
  }
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  if (!url.searchParams.has('Signature'))
    return refuse(response, 403, 'MissingKey', 'Missing Key-Pair-Id query parameter or cookie value');
  const verdict = verifySignedUrl(url, keys, now());
  if (!verdict.ok) return refuse(response, 403, 'AccessDenied', 'Access denied');
  // S3 reads the path CloudFront passes on with its % escapes decoded.
  let key: string;
  try {
    key = decodeURIComponent(url.pathname.slice(1));
  } catch {
    return refuse(response, 403, 'AccessDenied', 'Access Denied');
  }
  try {
    const object = await s3().send(new GetObjectCommand({ Bucket: config.filesBucket, Key: key }));
    const headers: Record<string, string> = { ...PLAN_RESPONSE_HEADERS };
    for (const field of PASSED_ON) {
      const value = object[field];
      if (value !== undefined) headers[HEADER_OF[field]] = String(value);
    }
    response.writeHead(200, headers);
    if (request.method === 'HEAD') return void response.end();
    response.end(object.Body ? Buffer.from(await object.Body.transformToByteArray()) : undefined);
  } catch (error) {
    const status = statusOf(error);
    if (status === 404 || status === 403) return refuse(response, 403, 'AccessDenied', 'Access Denied');
    throw error;
  }
}
