import { type KeyObject, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { Context } from 'aws-lambda';
import sirv from 'sirv';
import { verifyAccessToken } from '@argentum/functions/adapters/access-token';
import {
  type ApiDomain,
  type ApiEvent,
  type ApiResponse,
  type Route,
  routeKey,
} from '@argentum/functions/http/types';
import { routes } from '@argentum/functions/routes/index';
import { HOST } from './config';
import { BodyTooLarge, ClientAborted, listen, type ListenAt, readBody } from './http-util';
import { contentSecurityPolicy } from '../src/content-security-policy';
import { apiFunction } from '../src/definitions';
import { invokeApiFunction } from './lambda-invoke';
import { PLAN_PATH_PREFIX, servePlan } from './plan-edge';
import { readMailbox } from './ses-capture';
import type { StreamRunner } from './stream-runner';

/** API Gateway HTTP APIs accept at most 10 MB. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** API Gateway's answer to a request it refuses as too large (413). */
const TOO_LARGE = { message: 'Request Entity Too Large' };

/**
 * API Gateway HTTP APIs refuse a request whose request line and header values together pass 10,240
 * bytes (a quota that cannot be raised; cookies count). AWS does not document the status of that
 * refusal: here it is 431, RFC 6585's, with API Gateway's `{ message }` body.
 */
export const MAX_REQUEST_LINE_AND_HEADER_BYTES = 10_240;

/** The bytes API Gateway's quota counts: the request line, and the values (not names) of the headers. */
export function requestLineAndHeaderBytes(
  request: Pick<IncomingMessage, 'method' | 'url' | 'httpVersion' | 'rawHeaders'>,
): number {
  // Header values arrive as latin1: one byte a character.
  let bytes = `${request.method ?? ''} ${request.url ?? ''} HTTP/${request.httpVersion}`.length;
  for (let i = 1; i < request.rawHeaders.length; i += 2) bytes += request.rawHeaders[i]?.length ?? 0;
  return bytes;
}

export interface ApiServerOptions {
  port: ListenAt;
  staticDir: string;
  tokenIssuer: string;
  userPoolClientId: string;
  mailDir: string;
  /** The browser's real-time endpoint, allowed by the content security policy. */
  realtimeUrl: string;
  /**
   * What the web app reads from `/config.json` at startup (on AWS the deployment writes that file next
   * to the app); here with `realtimeUrl`, the local broker's WebSocket URL.
   */
  runtimeConfig: Record<string, string>;
  /**
   * The table's stream runner, controlled through `POST /_local/streams/{pause,resume,drained}` (for
   * tests in other processes: pause it to look at a delete before the sweeper runs, wait for it). A
   * pause names its holder (`?holder=`); the runner resumes when every holder has resumed it.
   */
  streams?: Pick<StreamRunner, 'drained' | 'pause' | 'resume'>;
  /** Origin of the local S3: browsers post uploads to it and load logos from it. */
  filesOrigin: string;
  /**
   * The key group of the floor plan behaviour (public key id -> key): GET /floorplans/* is served from
   * the files bucket only with a URL signed by one of them (plan-edge.ts), as CloudFront does.
   */
  planKeys: ReadonlyMap<string, KeyObject>;
  /** The origin plan URLs are signed for (APP_ORIGIN): the app is also browsed as 127.0.0.1. */
  planOrigin: string;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

const isText = (contentType: string | undefined) =>
  !contentType || /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i.test(contentType);

/**
 * Emulates API Gateway's JWT authorizer: a missing, invalid or expired access token never reaches the
 * handler. An expired one is answered like API Gateway does, naming the expiry in WWW-Authenticate.
 */
async function authorize(request: IncomingMessage, options: ApiServerOptions) {
  const header = request.headers.authorization ?? '';
  const token = /^Bearer\s+(.+)$/i.exec(header)?.[1];
  if (!token) return { ok: false as const, expired: false };
  const check = await verifyAccessToken(token, options.tokenIssuer, options.userPoolClientId);
  if (!check.ok) return { ok: false as const, expired: check.expired };
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(check.claims)) claims[name] = String(value);
  return { ok: true as const, claims };
}

function toEvent(
  request: IncomingMessage,
  route: Route,
  url: URL,
  body: Buffer,
  claims?: Record<string, string>,
): ApiEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie')
      headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const text = isText(headers['content-type']);
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, key) => (query[key] = value));
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies: request.headers.cookie?.split(/;\s*/).filter(Boolean),
    headers,
    queryStringParameters: url.search ? query : undefined,
    body: body.length === 0 ? undefined : text ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !text,
    requestContext: {
      requestId: randomUUID(),
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      ...(claims ? { authorizer: { jwt: { claims, scopes: null } } } : {}),
    },
  };
}

/**
 * A synchronous Lambda invocation takes at most 6 MB of payload each way: the event it is given and
 * the response it returns, each serialized as JSON.
 */
export const MAX_LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;

/**
 * The bytes of an API event or a handler's response as Lambda counts them (its JSON), when they pass
 * the limit. A base64 body is as long in JSON as it is; a text body far from the limit is not
 * serialized to count it (JSON writes a character in at most 6 bytes).
 */
export function oversizedPayload(payload: { body?: string; isBase64Encoded?: boolean }): number | undefined {
  const length = payload.body?.length ?? 0;
  if ((payload.isBase64Encoded ? length : length * 6) < MAX_LAMBDA_PAYLOAD_BYTES / 2) return undefined;
  const { body = '', ...rest } = payload;
  const bodyBytes = payload.isBase64Encoded ? body.length + 2 : Buffer.byteLength(JSON.stringify(body));
  const bytes = Buffer.byteLength(JSON.stringify(rest)) + ',"body":'.length + bodyBytes;
  return bytes > MAX_LAMBDA_PAYLOAD_BYTES ? bytes : undefined;
}

function writeResult(response: ServerResponse, result: ApiResponse, route: Route) {
  const oversized = oversizedPayload(result);
  if (oversized !== undefined) {
    // Lambda fails the invocation (Function.ResponseSizeTooLarge) and API Gateway answers 500.
    console.error(
      `${routeKey(route)}: a response of ${oversized} bytes is more than Lambda returns (${MAX_LAMBDA_PAYLOAD_BYTES})`,
    );
    return send(response, 500, { message: 'Internal Server Error' });
  }
  const headers: Record<string, string | string[]> = { ...result.headers };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const encoding = result.isBase64Encoded ? 'base64' : 'utf8';
  // API Gateway buffers the Lambda's whole response and answers with its length, never chunked.
  // (A 204 or 304 has no body, and no length.)
  if (result.statusCode !== 204 && result.statusCode !== 304)
    headers['content-length'] = String(result.body ? Buffer.byteLength(result.body, encoding) : 0);
  response.writeHead(result.statusCode, headers);
  // The body as a string: written to the socket as it is encoded, with no copy into a Buffer first.
  if (result.body) response.end(result.body, encoding);
  else response.end();
}

type LambdaHandler = (event: ApiEvent, context: Context) => Promise<ApiResponse>;

/**
 * The API Lambdas' entry points, the same modules CDK deploys (each wires its own adapters). Imported
 * when the server starts, after the stack has set the environment they read.
 */
const lambdaEntries: Record<ApiDomain, () => Promise<{ handler: LambdaHandler }>> = {
  auth: () => import('@argentum/functions/lambda/api-auth'),
  users: () => import('@argentum/functions/lambda/api-users'),
  tree: () => import('@argentum/functions/lambda/api-tree'),
  floors: () => import('@argentum/functions/lambda/api-floors'),
  floorplans: () => import('@argentum/functions/lambda/api-floorplans'),
  devices: () => import('@argentum/functions/lambda/api-devices'),
  control: () => import('@argentum/functions/lambda/api-control'),
  data: () => import('@argentum/functions/lambda/api-data'),
  notifications: () => import('@argentum/functions/lambda/api-notifications'),
  integrations: () => import('@argentum/functions/lambda/api-integrations'),
};

export async function startApiServer(options: ApiServerOptions): Promise<Server> {
  const domainHandlers = new Map(
    await Promise.all(
      Object.entries(lambdaEntries).map(async ([domain, load]) => [domain, (await load()).handler] as const),
    ),
  );
  const table = new Map(routes.map((r) => [routeKey(r), r]));
  /** Who holds the stream runner paused (see `streams`). */
  const streamHolders = new Set<string>();
  const securityHeaders = {
    'content-security-policy': contentSecurityPolicy({
      realtime: options.realtimeUrl,
      files: options.filesOrigin,
      plans: options.planOrigin,
    }),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
  const assets = existsSync(options.staticDir)
    ? sirv(options.staticDir, {
        single: true,
        etag: true,
        setHeaders: (response, pathname) => {
          for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
          response.setHeader(
            'cache-control',
            pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      })
    : undefined;

  async function api(request: IncomingMessage, response: ServerResponse, url: URL) {
    if (requestLineAndHeaderBytes(request) > MAX_REQUEST_LINE_AND_HEADER_BYTES)
      return send(response, 431, { message: 'Request Header Fields Too Large' });
    const route = table.get(`${request.method} ${url.pathname}`);
    if (!route) return send(response, 404, { message: 'Not Found' });
    let claims: Record<string, string> | undefined;
    if (route.access !== 'public') {
      const auth = await authorize(request, options);
      if (!auth.ok) {
        const description = auth.expired ? 'the token has expired' : 'the token is missing or invalid';
        return send(
          response,
          401,
          { message: 'Unauthorized' },
          {
            'www-authenticate': `Bearer scope="" error="invalid_token" error_description="${description}"`,
          },
        );
      }
      claims = auth.claims;
    }
    let body: Buffer;
    try {
      body = await readBody(request, MAX_PAYLOAD_BYTES);
    } catch (error) {
      // The unread rest of the body would be taken for the next request: close the connection.
      if (error instanceof BodyTooLarge) return send(response, 413, TOO_LARGE, { connection: 'close' });
      if (error instanceof ClientAborted) return;
      throw error;
    }
    const event = toEvent(request, route, url, body, claims);
    // Lambda refuses to invoke a function with more (RequestEntityTooLargeException), and the handler
    // never runs. AWS does not document how an HTTP API answers that; its REST APIs answer 413: here
    // 413, as the gateway refuses a body past 10 MB.
    if (oversizedPayload(event) !== undefined) return send(response, 413, TOO_LARGE);
    const handler = domainHandlers.get(route.domain);
    if (!handler) return send(response, 500, { message: 'Internal Server Error' });
    const { memoryMB, timeoutSeconds } = apiFunction(route.domain);
    const result = await invokeApiFunction(handler, event, {
      name: `api-${route.domain}`,
      timeoutMs: timeoutSeconds * 1000,
      memoryMB,
      requestId: event.requestContext.requestId,
    });
    writeResult(response, result, route);
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/integrations/')) {
      api(request, response, url).catch((error: unknown) => {
        console.error('local API server failure', error);
        if (!response.headersSent) send(response, 500, { message: 'Internal Server Error' });
      });
      return;
    }
    if (url.pathname.startsWith(PLAN_PATH_PREFIX)) {
      servePlan(request, response, options.planKeys, () => new Date()).catch((error: unknown) => {
        console.error('local plan edge failure', error);
        if (!response.headersSent) send(response, 502, { message: 'Bad Gateway' });
      });
      return;
    }
    if (url.pathname === '/config.json' && (request.method === 'GET' || request.method === 'HEAD')) {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-cache',
        ...securityHeaders,
      });
      response.end(request.method === 'HEAD' ? undefined : JSON.stringify(options.runtimeConfig));
      return;
    }
    if (url.pathname === '/_local/mail') {
      return send(response, 200, readMailbox(options.mailDir));
    }
    const streamControl = /^\/_local\/streams\/(pause|resume|drained)$/.exec(url.pathname)?.[1];
    if (streamControl && request.method === 'POST' && options.streams) {
      const streams = options.streams;
      // Test files run side by side: the runner stays paused while any holder (`?holder=`) holds it.
      const holder = url.searchParams.get('holder') ?? '';
      if (streamControl === 'pause') streamHolders.add(holder);
      if (streamControl === 'resume') streamHolders.delete(holder);
      const done =
        streamControl === 'pause'
          ? streams.pause()
          : streamControl === 'resume'
            ? Promise.resolve(streamHolders.size === 0 ? streams.resume() : undefined)
            : streams.drained();
      done.then(
        () => send(response, 200, { [streamControl]: true }),
        (error: unknown) => {
          console.error('local stream control failure', error);
          send(response, 500, { message: 'Internal Server Error' });
        },
      );
      return;
    }
    if (assets) return assets(request, response, () => send(response, 404, { message: 'Not Found' }));
    response.writeHead(503, { 'content-type': 'text/plain' });
    response.end(
      `The web app is not built: run \`npm run build:frontend\` (expected ${path.relative(process.cwd(), options.staticDir)}).`,
    );
  });
  await listen(server, options.port, HOST);
  return server;
}
