import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { BodyTooLarge, boundPort, close, listen, type ListenAt, readBody } from './http-util';

/**
 * The S3 twin's gate: a verifying proxy in front of s3rver, which checks no SigV4 signature, no
 * expiry and no POST policy (it answers 200 to a forged, unsigned or key-swapped link). Every request
 * is checked here as S3 checks it, then passed to s3rver unchanged; a refusal is S3's XML error with
 * S3's status and code:
 *
 * - header-signed requests (the SDK): the `Authorization` SigV4 signature over the canonical request,
 *   the payload hash, and the clock (15 minutes either way, RequestTimeTooSkewed);
 * - presigned URLs (`X-Amz-Signature` in the query): the signature, and `X-Amz-Date` + `X-Amz-Expires`
 *   (at most 7 days) against the clock: 'Request has expired';
 * - browser POST uploads: the policy's signature, its expiration, every condition (bucket, key,
 *   Content-Type and the other fields, exact or `starts-with`), no field the policy does not name, and
 *   `content-length-range` against the file (EntityTooLarge / EntityTooSmall), and the signer's
 *   permission to put the key (`signerMayUpload`; 403 AccessDenied);
 * - anything unsigned but a CORS preflight: 403 AccessDenied (the bucket is private).
 *
 * It also answers a ranged GET of an empty object with 416 InvalidRange, as S3 does (s3rver hangs).
 * References: AWS S3 API reference, "Authenticating Requests (AWS Signature Version 4)" and
 * "Browser-Based Uploads Using POST"; error codes from "Error Responses".
 */
export interface S3GateOptions {
  host: string;
  /** Where the gate listens: the S3 endpoint every client is given (0: a free port). */
  port: ListenAt;
  /** Where s3rver listens. */
  upstreamPort: number;
  /** The key pairs S3 knows. */
  credentials: Record<string, string>;
  /**
   * Whether the identity that signed an upload form (by its access key) may put its key, as S3 asks
   * IAM of the signer's role (function-grants.ts: `signerMayUpload`). Unset: every known key may.
   */
  signerMayUpload?: (accessKeyId: string, bucket: string, key: string) => boolean;
  /** Origins that may read the gate's own refusals (the bucket's CORS rule answers for s3rver's). */
  corsOrigins: string[];
  /** The clock (tests of expiry move it). */
  now?: () => number;
}

export interface S3Gate {
  /** Where it listens. */
  port: number;
  stop(): Promise<void>;
}

/** S3 takes at most 5 GB in one request; the twin holds a request in memory, so less. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const SKEW_MS = 15 * 60 * 1000;
const ALGORITHM = 'AWS4-HMAC-SHA256';

class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const refusal = (status: number, code: string, message: string) => new S3Refusal(status, code, message);
const accessDenied = (message = 'Access Denied') => refusal(403, 'AccessDenied', message);
const signatureMismatch = () =>
  refusal(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  );

/** RFC 3986 encoding, as SigV4's canonical forms use it. */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** The SigV4 signing key of a secret for a date (yyyymmdd), region and service. */
function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/** A query string's pairs as sent (decoded; '+' is a plus, as S3 reads it). */
function queryPairs(rawQuery: string): [string, string][] {
  if (!rawQuery) return [];
  return rawQuery.split('&').map((part) => {
    const at = part.indexOf('=');
    const name = at < 0 ? part : part.slice(0, at);
    const value = at < 0 ? '' : part.slice(at + 1);
    return [decodeURIComponent(name), decodeURIComponent(value)];
  });
}

function canonicalQuery(pairs: [string, string][]): string {
  return pairs
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const headerValue = (request: IncomingMessage, name: string) => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
};

/** yyyyMMddTHHmmssZ as epoch ms, or undefined. */
function amzDate(text: string | undefined): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s);
}

interface Credential {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  scope: string;
}

function parseCredential(text: string | undefined, malformed: S3Refusal): Credential {
  const parts = (text ?? '').split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request' || parts[3] !== 's3') throw malformed;
  const [accessKeyId = '', date = '', region = '', service = ''] = parts;
  return { accessKeyId, date, region, service, scope: parts.slice(1).join('/') };
}

function secretOf(credentials: Record<string, string>, accessKeyId: string): string {
  const secret = credentials[accessKeyId];
  if (secret === undefined) {
    throw refusal(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
    );
  }
  return secret;
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given.toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The signature of a canonical request, for the credential's scope and the request's time. */
function signatureOf(canonicalRequest: string, date: string, credential: Credential, secret: string): string {
  const stringToSign = [ALGORITHM, date, credential.scope, sha256Hex(canonicalRequest)].join('\n');
  return hmac(
    signingKey(secret, credential.date, credential.region, credential.service),
    stringToSign,
  ).toString('hex');
}

function canonicalRequest(
  request: IncomingMessage,
  path: string,
  pairs: [string, string][],
  signedHeaders: string[],
  payloadHash: string,
): string {
  return [
    request.method ?? 'GET',
    path,
    canonicalQuery(pairs),
    signedHeaders.map((name) => `${name}:${headerValue(request, name)}\n`).join(''),
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
}

/** A presigned URL: its signature over the request, and its time window. */
function verifyPresigned(request: IncomingMessage, path: string, rawQuery: string, options: S3GateOptions) {
  const pairs = queryPairs(rawQuery);
  const query = new Map(pairs);
  const malformed = refusal(
    400,
    'AuthorizationQueryParametersError',
    'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
  );
  if (query.get('X-Amz-Algorithm') !== ALGORITHM) throw malformed;
  const credential = parseCredential(query.get('X-Amz-Credential'), malformed);
  const date = query.get('X-Amz-Date') ?? '';
  const signedAt = amzDate(date);
  const expires = Number(query.get('X-Amz-Expires'));
  const signature = query.get('X-Amz-Signature');
  const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
  if (signedAt === undefined || !signature || !Number.isInteger(expires) || !signedHeaders.includes('host'))
    throw malformed;
  if (expires < 1 || expires > MAX_PRESIGN_SECONDS) {
    throw refusal(
      400,
      'AuthorizationQueryParametersError',
      'X-Amz-Expires must be less than a week (in seconds) that is; 604800 seconds',
    );
  }
  const secret = secretOf(options.credentials, credential.accessKeyId);
  const unsigned = pairs.filter(([name]) => name !== 'X-Amz-Signature');
  const expected = signatureOf(
    canonicalRequest(request, path, unsigned, signedHeaders, 'UNSIGNED-PAYLOAD'),
    date,
    credential,
    secret,
  );
  if (!sameSignature(expected, signature)) throw signatureMismatch();
  const now = (options.now ?? Date.now)();
  if (now > signedAt + expires * 1000) throw accessDenied('Request has expired');
  if (signedAt > now + SKEW_MS) throw accessDenied('Request is not valid yet');
}

/** A request signed in its Authorization header (the SDK's own calls). */
function verifyHeaderSigned(
  request: IncomingMessage,
  path: string,
  rawQuery: string,
  body: Buffer,
  options: S3GateOptions,
) {
  const authorization = headerValue(request, 'authorization');
  const malformed = refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/i.exec(
    authorization,
  );
  if (!match) throw malformed;
  const credential = parseCredential(match[1], malformed);
  const signedHeaders = (match[2] ?? '').split(';');
  const date = headerValue(request, 'x-amz-date');
  const signedAt = amzDate(date);
  const payloadHash = headerValue(request, 'x-amz-content-sha256');
  if (signedAt === undefined || !signedHeaders.includes('host')) throw malformed;
  if (!payloadHash)
    throw refusal(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  const secret = secretOf(options.credentials, credential.accessKeyId);
  const expected = signatureOf(
    canonicalRequest(request, path, queryPairs(rawQuery), signedHeaders, payloadHash),
    date,
    credential,
    secret,
  );
  if (!sameSignature(expected, match[3] ?? '')) throw signatureMismatch();
  if (Math.abs((options.now ?? Date.now)() - signedAt) > SKEW_MS) {
    throw refusal(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
    );
  }
  if (/^[0-9a-f]{64}$/.test(payloadHash) && sha256Hex(body) !== payloadHash) {
    throw refusal(
      400,
      'XAmzContentSHA256Mismatch',
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    );
  }
}

type PolicyCondition = Record<string, unknown> | unknown[];

/** A browser POST upload: the policy's signature, expiry and every condition, against the form. */
async function verifyPost(request: IncomingMessage, bucket: string, body: Buffer, options: S3GateOptions) {
  let form: FormData;
  try {
    form = await new Request('http://s3.local/', {
      method: 'POST',
      headers: { 'content-type': headerValue(request, 'content-type') },
      body: new Uint8Array(body),
    }).formData();
  } catch {
    throw refusal(
      400,
      'MalformedPOSTRequest',
      'The body of your POST request is not well-formed multipart/form-data.',
    );
  }
  const fields = new Map<string, string>();
  let file: File | undefined;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      if (!file) fields.set(name.toLowerCase(), value);
    } else if (name.toLowerCase() === 'file' && !file) file = value;
  }
  if (!file) throw refusal(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  const policyText = fields.get('policy');
  const signature = fields.get('x-amz-signature');
  if (!policyText || !signature) throw accessDenied();
  if (fields.get('x-amz-algorithm') !== ALGORITHM) {
    throw refusal(400, 'InvalidArgument', 'The x-amz-algorithm field must be AWS4-HMAC-SHA256.');
  }
  const credential = parseCredential(
    fields.get('x-amz-credential'),
    refusal(400, 'InvalidArgument', 'The x-amz-credential field is malformed.'),
  );
  const secret = secretOf(options.credentials, credential.accessKeyId);
  const expected = hmac(
    signingKey(secret, credential.date, credential.region, credential.service),
    policyText,
  ).toString('hex');
  if (!sameSignature(expected, signature)) throw signatureMismatch();

  let policy: { expiration?: unknown; conditions?: unknown };
  try {
    policy = JSON.parse(Buffer.from(policyText, 'base64').toString('utf8')) as typeof policy;
  } catch {
    throw refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  const expiration = typeof policy.expiration === 'string' ? Date.parse(policy.expiration) : NaN;
  if (!Number.isFinite(expiration) || !Array.isArray(policy.conditions)) {
    throw refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Policy missing expiration or conditions.');
  }
  if ((options.now ?? Date.now)() > expiration)
    throw accessDenied('Invalid according to Policy: Policy expired.');

  const values = new Map(fields);
  values.set('bucket', bucket);
  const covered = new Set<string>(['bucket']);
  const failed = (condition: PolicyCondition) =>
    accessDenied(`Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`);
  for (const condition of policy.conditions as PolicyCondition[]) {
    if (Array.isArray(condition)) {
      const [operator, subject, operand] = condition as [unknown, unknown, unknown];
      if (operator === 'content-length-range') {
        const [min, max] = [Number(subject), Number(operand)];
        if (file.size > max)
          throw refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
        if (file.size < min)
          throw refusal(
            400,
            'EntityTooSmall',
            'Your proposed upload is smaller than the minimum allowed size',
          );
        continue;
      }
      const name =
        typeof subject === 'string' && subject.startsWith('$') ? subject.slice(1).toLowerCase() : '';
      const value = values.get(name) ?? '';
      covered.add(name);
      const ok =
        (operator === 'eq' && value === operand) ||
        (operator === 'starts-with' && typeof operand === 'string' && value.startsWith(operand));
      if (!ok) throw failed(condition);
    } else {
      for (const [name, operand] of Object.entries(condition)) {
        covered.add(name.toLowerCase());
        if (values.get(name.toLowerCase()) !== operand) throw failed(condition);
      }
    }
  }
  const extra = [...fields.keys()].filter(
    (name) =>
      !covered.has(name) &&
      !['policy', 'x-amz-signature', 'file'].includes(name) &&
      !name.startsWith('x-ignore-'),
  );
  if (extra.length > 0)
    throw accessDenied(`Invalid according to Policy: Extra input fields: ${extra.join(', ')}`);
  // A form is the signer's request: S3 puts the object only if the signer's role may.
  if (
    options.signerMayUpload &&
    !options.signerMayUpload(credential.accessKeyId, bucket, values.get('key') ?? '')
  )
    throw accessDenied();
}

function sendRefusal(
  request: IncomingMessage,
  response: ServerResponse,
  error: S3Refusal,
  options: S3GateOptions,
) {
  const origin = headerValue(request, 'origin');
  const requestId = randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase();
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${error.code}</Code><Message>${error.message.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</Message>` +
    `<RequestId>${requestId}</RequestId></Error>`;
  response.writeHead(error.status, {
    'content-type': 'application/xml',
    'x-amz-request-id': requestId,
    ...(options.corsOrigins.includes(origin)
      ? { 'access-control-allow-origin': origin, vary: 'Origin' }
      : {}),
  });
  response.end(request.method === 'HEAD' ? undefined : xml);
}

/** Whether the object at `path` is empty (a HEAD to s3rver, which asks no signature). */
function isEmptyObject(options: S3GateOptions, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const head = httpRequest(
      { host: options.host, port: options.upstreamPort, method: 'HEAD', path },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200 && answer.headers['content-length'] === '0');
      },
    );
    head.on('error', () => resolve(false));
    head.end();
  });
}

function forward(request: IncomingMessage, response: ServerResponse, body: Buffer, options: S3GateOptions) {
  const upstream = httpRequest(
    {
      host: options.host,
      port: options.upstreamPort,
      method: request.method,
      path: request.url,
      headers: { ...request.headers, 'content-length': String(body.length) },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', () => {
    if (!response.headersSent) response.writeHead(503);
    response.end();
  });
  upstream.end(body);
}

/** Starts the gate on `port`, in front of s3rver on `upstreamPort`. */
export async function startS3Gate(options: S3GateOptions): Promise<S3Gate> {
  const server = createServer((request, response) => {
    void (async () => {
      try {
        const url = request.url ?? '/';
        const at = url.indexOf('?');
        const path = at < 0 ? url : url.slice(0, at);
        const rawQuery = at < 0 ? '' : url.slice(at + 1);
        let body: Buffer;
        try {
          body = await readBody(request, MAX_BODY_BYTES);
        } catch (error) {
          if (error instanceof BodyTooLarge)
            throw refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
          throw error;
        }
        const segments = path.split('/').filter(Boolean);
        if (request.method === 'OPTIONS') {
          // A CORS preflight carries no credentials; the bucket's CORS rule answers it.
        } else if (/(^|&)X-Amz-Signature=/.test(rawQuery) || /(^|&)X-Amz-Algorithm=/.test(rawQuery)) {
          verifyPresigned(request, path, rawQuery, options);
        } else if (headerValue(request, 'authorization')) {
          verifyHeaderSigned(request, path, rawQuery, body, options);
        } else if (
          request.method === 'POST' &&
          segments.length === 1 &&
          headerValue(request, 'content-type').toLowerCase().startsWith('multipart/form-data')
        ) {
          await verifyPost(request, decodeURIComponent(segments[0] ?? ''), body, options);
        } else {
          throw accessDenied();
        }
        if (
          (request.method === 'GET' || request.method === 'HEAD') &&
          request.headers.range &&
          segments.length > 1 &&
          (await isEmptyObject(options, path))
        ) {
          throw refusal(416, 'InvalidRange', 'The requested range is not satisfiable');
        }
        forward(request, response, body, options);
      } catch (error) {
        if (error instanceof S3Refusal) sendRefusal(request, response, error, options);
        else {
          if (!response.headersSent) response.writeHead(500);
          response.end();
        }
      }
    })();
  });
  await listen(server, options.port, options.host);
  return { port: boundPort(server), stop: () => close(server) };
}
