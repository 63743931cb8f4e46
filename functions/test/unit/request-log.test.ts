import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { Context } from 'aws-lambda';
import { createApiHandler } from '../../src/http/api-handler';
import { log } from '../../src/http/log';
import type { ApiEvent, Route, RoutePorts } from '../../src/http/types';

/** A public route whose handler logs a line after yielding, as real handlers do around their I/O. */
const route = {
  method: 'POST',
  path: '/api/probe',
  domain: 'tree',
  access: 'public',
  request: z.strictObject({ orgId: z.string(), delayMs: z.number() }),
  handler: async ({ body }: { body: { orgId: string; delayMs: number } }) => {
    await new Promise((resolve) => setTimeout(resolve, body.delayMs));
    log('info', 'probe handled');
    return { body: {} };
  },
} as unknown as Route<RoutePorts>;

const call = (requestId: string, body: object) =>
  createApiHandler([route], {} as RoutePorts)(
    {
      routeKey: 'POST /api/probe',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      isBase64Encoded: false,
      requestContext: { requestId, http: { sourceIp: '203.0.113.9' } },
    } as unknown as ApiEvent,
    {} as Context,
  );

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The lines logged from now on at LOG_LEVEL info, parsed. */
function infoLines(): Record<string, unknown>[] {
  vi.stubEnv('LOG_LEVEL', 'info');
  const lines: Record<string, unknown>[] = [];
  // Lines go to stdout (Powertools' Logger writes there, not through the global console).
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  });
  return lines;
}

describe('structured logs of API requests', () => {
  it("carry the request's id and organization on every line, also when requests interleave", async () => {
    const lines = infoLines();
    await Promise.all([
      call('req-a', { orgId: 'org-a', delayMs: 30 }),
      call('req-b', { orgId: 'org-b', delayMs: 0 }),
    ]);
    const handled = lines.filter((line) => line.message === 'probe handled');
    expect(handled).toHaveLength(2);
    expect(handled).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ requestId: 'req-a', orgId: 'org-a' }),
        expect.objectContaining({ requestId: 'req-b', orgId: 'org-b' }),
      ]),
    );
    // Outside a request, nothing is carried over.
    log('info', 'outside');
    expect(lines.at(-1)).toMatchObject({ level: 'INFO', message: 'outside', service: 'argentum' });
    expect(lines.at(-1)).not.toHaveProperty('requestId');
  });

  it('end with one line per request: its route, status and duration, also when it is refused', async () => {
    const lines = infoLines();
    const answered = await call('req-ok', { orgId: 'org-a', delayMs: 40 });
    const refused = await call('req-bad', { orgId: 'org-a' });
    expect([answered.statusCode, refused.statusCode]).toEqual([200, 400]);
    const requests = lines.filter((line) => line.message === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ requestId: 'req-ok', orgId: 'org-a', route: 'POST /api/probe', status: 200 }),
      expect.objectContaining({ requestId: 'req-bad', route: 'POST /api/probe', status: 400 }),
    ]);
    // The duration covers the handler's own wait (timers never fire early; the clock counts whole ms).
    expect(requests[0]?.durationMs).toBeGreaterThanOrEqual(39);
    // The line comes after everything the request logged.
    const order = lines.map((line) => line.message);
    expect(order.indexOf('probe handled')).toBeLessThan(order.indexOf('request'));
  });

  it('follow LOG_LEVEL at each call', () => {
    const written = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.stubEnv('LOG_LEVEL', 'warn');
    log('info', 'hidden');
    expect(written).not.toHaveBeenCalled();
    vi.stubEnv('LOG_LEVEL', 'debug');
    log('debug', 'shown');
    expect(written).toHaveBeenCalledOnce();
  });
});
