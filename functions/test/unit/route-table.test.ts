import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/openapi/openapi';
import { documentedCalls } from '../../src/routes/documented-calls';
import { routeKey } from '../../src/http/types';
import { routes } from '../../src/routes/index';

describe('route table', () => {
  it('routes every documented call of both specifications', () => {
    // The specifications document 55 distinct calls with a path.
    expect(documentedCalls).toHaveLength(55);
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
});

describe('OpenAPI document generated from the route table', () => {
  const document = openApiDocument(routes);

  it('has exactly the paths and methods of the route table', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(routes.map(routeKey).sort());
  });

  it.each(routes.map((route) => [routeKey(route), route] as const))(
    '%s: its domain, security, minimum role, body and answers',
    (_key, route) => {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      const errors = expect.objectContaining({ content: expect.any(Object) });
      const signedIn =
        route.access === 'public'
          ? { security: [] }
          : {
              security: [{ cognito: [] }],
              'x-minimum-role': route.access.minRole,
              description: expect.stringMatching(new RegExp(`^Minimum role: ${route.access.minRole} \\(`)),
            };
      expect(operation).toEqual({
        summary: route.summary,
        tags: [route.domain],
        ...signedIn,
        ...(route.method === 'GET'
          ? {}
          : {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: expect.objectContaining({ type: 'object' }) } },
              },
            }),
        responses: {
          '200': { description: 'Success' },
          '400': errors,
          ...(route.access === 'public' ? {} : { '401': errors, '403': errors }),
          '413': errors,
        },
      });
    },
  );
});
