import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { Context } from 'aws-lambda';
import { createApiHandler } from '../../src/http/api-handler';
import { DIRECT_ACCESS_MESSAGE } from '../../src/http/middleware';
import { ENV } from '../../src/environment';
import type { ApiEvent, Route, RoutePorts } from '../../src/http/types';

const secret = 'origin-secret-0123456789';

/** A public route whose handler only records that it ran. */
function probe() {
  const calls: string[] = [];
  const route = {
    method: 'POST',
    path: '/api/probe',
    domain: 'auth',
    access: 'public',
    request: z.strictObject({}),
    handler: () => {
      calls.push('ran');
      return Promise.resolve({ body: { ok: true } });
    },
  } as unknown as Route<RoutePorts>;
  const handler = createApiHandler([route], {} as RoutePorts);
  const call = (headers: Record<string, string>) =>
    handler(
      {
        routeKey: 'POST /api/probe',
        headers,
        // Not JSON: a request refused at the origin check is never parsed.
        body: '{not json',
        isBase64Encoded: false,
        requestContext: { requestId: 'r1', http: { sourceIp: '203.0.113.9' } },
      } as unknown as ApiEvent,
      {} as Context,
    );
  return { calls, call };
}

async function withEnv(values: Record<string, string | undefined>, run: () => Promise<void>) {
  for (const [key, value] of Object.entries(values)) vi.stubEnv(key, value);
  try {
    await run();
  } finally {
    vi.unstubAllEnvs();
  }
}

describe('the API on AWS refuses requests that did not come through CloudFront', () => {
  it('answers 403 before parsing or running anything when the origin secret is missing or wrong', () =>
    withEnv({ [ENV.originSecret]: secret, [ENV.originRequired]: 'true', LOG_LEVEL: 'silent' }, async () => {
      const { calls, call } = probe();
      const refused: Record<string, string>[] = [
        {},
        { 'x-origin-verify': `${secret}x` },
        { 'x-origin-verify': '' },
      ];
      for (const headers of refused) {
        const response = await call({ 'content-type': 'application/json', ...headers });
        expect(response.statusCode).toBe(403);
        expect(JSON.parse(String(response.body))).toMatchObject({ message: DIRECT_ACCESS_MESSAGE });
      }
      expect(calls).toEqual([]);
      // Through CloudFront the request is handled (here: its malformed body is the 400).
      const through = await call({ 'content-type': 'application/json', 'x-origin-verify': secret });
      expect(through.statusCode).toBe(400);
    }));

  it('is off where there is no CloudFront (the local platform): the secret alone refuses nothing', () =>
    withEnv(
      { [ENV.originSecret]: secret, [ENV.originRequired]: undefined, LOG_LEVEL: 'silent' },
      async () => {
        const { call } = probe();
        expect((await call({ 'content-type': 'application/json' })).statusCode).toBe(400);
      },
    ));
});
