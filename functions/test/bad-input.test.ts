import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey } from '../src/http/types';
import { routes } from '../src/routes/index';
import { call, createUser, signInAs } from './support/api';

/** What the API Gateway (and the local API server) accepts before any handler runs. */
const API_GATEWAY_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

const protectedRoutes = routes.filter((r) => r.access !== 'public');
const postRoutes = routes.filter((r) => r.method === 'POST');
const limitOf = (route: (typeof routes)[number]) => route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
/** Routes whose own limit is below the gateway's: the handler's check answers an oversized body. */
const ownLimit = postRoutes.filter((r) => limitOf(r) < API_GATEWAY_MAX_BYTES);
/** Routes that take files: only the gateway's limit applies. */
const gatewayLimit = postRoutes.filter((r) => limitOf(r) >= API_GATEWAY_MAX_BYTES);

/** An owner of both demo organizations, for this file only: any role check passes. */
let token: string;
beforeAll(async () => {
  token = (await signInAs(await createUser(3, ['org-demo', 'org-other']))).accessToken;
});

/** Bad input never gets a 500: every call answers it with a clear 4xx and a message. */
describe('every route refuses bad input with a clear 4xx', () => {
  it('covers every route: the protected ones, and every POST with its body limit', () => {
    expect(protectedRoutes).toHaveLength(routes.length - 7);
    // Logos and floor plans go straight to S3: no route takes a large body.
    expect(gatewayLimit.map(routeKey)).toEqual([]);
    expect(ownLimit.length + gatewayLimit.length).toBe(postRoutes.length);
  });

  it.each(protectedRoutes.map((r) => [routeKey(r), r] as const))(
    '%s: 401 without a token',
    async (_, route) => {
      const result = await call(route.path, {}, { method: route.method });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ message: 'Unauthorized' });
    },
  );

  it.each(postRoutes.map((r) => [routeKey(r), r] as const))(
    '%s: 400 for malformed JSON or unknown fields, 415 for another content type',
    async (_, route) => {
      const auth = route.access === 'public' ? undefined : token;
      const malformed = await call(route.path, undefined, { token: auth, raw: '{"oops":' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ message: 'Request body must be valid JSON.' });

      const unknown = await call(route.path, { definitelyNotAField: 1 }, { token: auth });
      expect(unknown.status).toBe(400);
      // The unknown field, or a required one that is missing, is named (union schemas say less).
      expect(unknown.body).toEqual({
        message: expect.stringMatching(
          /^(Unknown field 'definitelyNotAField' in request body\.|[A-Za-z]+ is required\.|Invalid input)$/,
        ),
      });

      const notJson = await call(route.path, undefined, {
        token: auth,
        raw: 'a=b',
        headers: { 'content-type': 'text/plain' },
      });
      expect(notJson.status).toBe(415);
      expect(notJson.body).toEqual({ message: 'Request body must be JSON (application/json).' });
    },
  );

  it.each(ownLimit.map((r) => [routeKey(r), r] as const))(
    '%s: 413 above its body limit',
    async (_, route) => {
      const oversized = await call(route.path, undefined, {
        token: route.access === 'public' ? undefined : token,
        raw: `{"x":"${'a'.repeat(limitOf(route) + 16)}"}`,
      });
      expect(oversized.status).toBe(413);
      expect(oversized.body).toEqual({ message: 'Request body is too large.' });
    },
  );

  it('answers 413 above the 10 MB API Gateway limit, before any handler runs', async () => {
    const result = await call('/api/dashboard/updateFloorPlanS3', undefined, {
      token,
      raw: `{"file":"${'a'.repeat(API_GATEWAY_MAX_BYTES + 1)}"}`,
    });
    expect(result.status).toBe(413);
  });

  it("answers 413 when the event passes Lambda's 6 MB invocation payload, counted as JSON, before any handler runs", async () => {
    const send = (raw: string) => call('/api/dashboard/getUsersOrganisations', undefined, { token, raw });
    // Under 6 MB as an event: the handler's own limit answers.
    const handled = await send(`{"x":"${'a'.repeat(5_000_000)}"}`);
    expect(handled).toMatchObject({ status: 413, body: { message: 'Request body is too large.' } });
    // 7 MB, under the gateway's 10 MB: Lambda is never invoked.
    const refused = await send(`{"x":"${'a'.repeat(7_000_000)}"}`);
    expect(refused).toMatchObject({ status: 413, body: { message: 'Request Entity Too Large' } });
    // 3.2 MB of body whose escaped quotes take 4 bytes each in the event's JSON: 6.4 MB.
    const escaped = await send(`{"x":"${'\\"'.repeat(1_600_000)}"}`);
    expect(escaped).toMatchObject({ status: 413, body: { message: 'Request Entity Too Large' } });
  });

  it("answers 431 when the request line and header values pass API Gateway's 10,240 bytes", async () => {
    const path = '/api/dashboard/getUsersOrganisations';
    // Cookies count: a browser sends every cookie of the site's domain.
    const withCookie = (bytes: number) => call(path, {}, { token, cookie: `other=${'c'.repeat(bytes)}` });
    expect((await withCookie(8_000)).status).toBe(200);
    const refused = await withCookie(10_300);
    expect(refused.status).toBe(431);
    expect(refused.body).toEqual({ message: 'Request Header Fields Too Large' });
  });

  it('answers unknown paths with 404', async () => {
    expect(await call('/api/doesNotExist', {})).toMatchObject({
      status: 404,
      body: { message: 'Not Found' },
    });
  });
});
