import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/openapi/openapi';
import { documentedCalls } from '../../src/routes/documented-calls';
import { routeKey } from '../../src/http/types';
import { routes } from '../../src/routes/index';
import { apiCalls } from '@argentum/contracts/api';
import { checkAnswer } from '../support/contract';

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

describe('the contract and the route table', () => {
  it('binds exactly one route to every call of the contract', () => {
    const callKeys = Object.values(apiCalls).map(routeKey).sort();
    expect(routes.map(routeKey).sort()).toEqual(callKeys);
  });
});

describe('OpenAPI document generated from the route table', () => {
  const document = openApiDocument(routes);
  const operation = (path: string) => document.paths[path]?.post as Record<string, unknown> | undefined;

  it("describes each answer with its call's response schema, and its own errors", () => {
    const login = operation('/api/login');
    expect(login?.responses).toMatchObject({
      '200': {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['accessToken', 'user'],
              properties: { user: { required: expect.arrayContaining(['id', 'orgRoles', 'theme']) } },
            },
          },
        },
      },
      '429': { content: { 'application/json': expect.any(Object) } },
    });
    const devices = operation('/api/deviceControl/getAllDevicesDataForFloorPlan');
    expect(devices?.responses).toMatchObject({
      '200': { content: { 'application/json': { schema: { required: ['devices', 'sensorSizes'] } } } },
      '401': expect.any(Object),
      '403': expect.any(Object),
      '404': expect.any(Object),
    });
  });

  it('lists 201 for the calls that create', () => {
    const creating = Object.entries(document.paths)
      .filter(
        ([, methods]) => '201' in ((methods.post as { responses: object } | undefined)?.responses ?? {}),
      )
      .map(([path]) => path)
      .sort();
    expect(creating).toEqual(['/api/dashboard/createOrUpdateFloor', '/api/dashboard/createOrUpdateOrgBuild']);
  });
});

describe('the contract check of the platform tests (support/contract.ts)', () => {
  const session = {
    accessToken: 'token',
    user: {
      id: 'u1',
      userName: 'Ann',
      email: 'ann@example.com',
      roles: 2,
      org: ['o1'],
      orgID: ['o1'],
      orgRoles: { o1: 2 },
      theme: 'light',
    },
  };

  it("passes an answer its call's schema describes", () => {
    expect(() => checkAnswer('POST', '/api/login', 200, session)).not.toThrow();
    expect(() => checkAnswer('POST', '/api/login', 429, { message: 'Too many attempts' })).not.toThrow();
  });

  it('refuses an answer missing a field, one of a wrong type, an error without a message, and an unlisted status', () => {
    const { accessToken: _, ...withoutToken } = session;
    expect(() => checkAnswer('POST', '/api/login', 200, withoutToken)).toThrow(/accessToken/);
    expect(() =>
      checkAnswer('POST', '/api/login', 200, { ...session, user: { ...session.user, roles: '2' } }),
    ).toThrow(/user\.roles/);
    expect(() => checkAnswer('POST', '/api/login', 401, { error: 'no' })).toThrow(/message/);
    expect(() => checkAnswer('POST', '/api/login', 201, session)).toThrow(/201/);
  });
});
