import { describe, expect, it } from 'vitest';
import { routeKey } from '../src/http/types';
import { routes } from '../src/routes/index';
import { call, signIn } from './support/api';

const protectedRoutes = routes.filter((r) => r.access !== 'public');
const postRoutes = routes.filter((r) => r.method === 'POST');

/** Bad input never gets a 500: every call answers it with a clear 4xx and a message. */
describe('every route refuses bad input with a clear 4xx', () => {
  it.each(protectedRoutes.map((r) => [routeKey(r), r] as const))(
    '%s: 401 without a token',
    async (_, route) => {
      const result = await call(route.path, {}, { method: route.method });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ message: 'Unauthorized' });
    },
  );

  it.each(postRoutes.map((r) => [routeKey(r), r] as const))(
    '%s: 400 for malformed JSON, 400 for unknown fields, 413 when oversized',
    async (_, route) => {
      const token = route.access === 'public' ? undefined : (await signIn('owner@example.com')).accessToken;
      const malformed = await call(route.path, undefined, { token, raw: '{"oops":' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ message: 'Request body must be valid JSON.' });

      const unknown = await call(route.path, { definitelyNotAField: 1 }, { token });
      expect(unknown.status).toBe(400);
      expect(String(unknown.body.message)).toMatch(/\w/);

      const limit = route.maxBodyBytes ?? 64 * 1024;
      if (limit < 9 * 1024 * 1024) {
        const oversized = await call(route.path, undefined, {
          token,
          raw: `{"x":"${'a'.repeat(limit + 16)}"}`,
        });
        expect(oversized.status).toBe(413);
        expect(oversized.body).toEqual({ message: 'Request body is too large.' });
      }

      const notJson = await call(route.path, undefined, {
        token,
        raw: 'a=b',
        headers: { 'content-type': 'text/plain' },
      });
      expect(notJson.status).toBe(415);
    },
  );

  it('answers bodies above the 10 MB API Gateway limit with 413 before any handler runs', async () => {
    const { accessToken } = await signIn('owner@example.com');
    const result = await call('/api/dashboard/updateFloorPlanS3', undefined, {
      token: accessToken,
      raw: `{"floorplan":"${'a'.repeat(10 * 1024 * 1024 + 1)}"}`,
    });
    expect(result.status).toBe(413);
  });

  it('answers unknown paths with 404', async () => {
    expect((await call('/api/doesNotExist', {})).status).toBe(404);
  });
});
