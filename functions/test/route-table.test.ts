import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi/openapi';
import { documentedCalls } from '../src/routes/documented-calls';
import { routeKey } from '../src/http/types';
import { routes } from '../src/routes/index';

describe('route table', () => {
  it('routes every documented call of both specifications', () => {
    const keys = new Set(routes.map(routeKey));
    const missing = documentedCalls.filter((c) => !keys.has(`${c.method} ${c.path}`));
    expect(missing).toEqual([]);
  });

  it('declares each route once', () => {
    const keys = routes.map(routeKey);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('keeps sign-in, refresh, registration and password reset public, and everything else signed in', () => {
    const publicPaths = routes
      .filter((r) => r.access === 'public')
      .map((r) => r.path)
      .sort();
    expect(publicPaths).toEqual(
      [
        '/api/confirmUser',
        '/api/dashboard/forgetPasswordEmail',
        '/api/login',
        '/api/refreshToken',
        '/api/registerUser',
        '/api/setForgetPassword',
        '/api/userLogout',
      ].sort(),
    );
  });

  it('describes every route in the OpenAPI document with its minimum role', () => {
    const document = openApiDocument(routes);
    for (const route of routes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as
        Record<string, unknown> | undefined;
      expect(operation, routeKey(route)).toBeDefined();
      if (route.access !== 'public') expect(operation?.['x-minimum-role']).toBe(route.access.minRole);
    }
  });
});
