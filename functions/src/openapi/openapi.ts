import * as z from 'zod';
import type { Route } from '../http/types';
import { roleNames } from '@argentum/events/contracts';

type JsonSchema = Record<string, unknown>;

/** The OpenAPI 3.1 description of the API, generated from the route table. */
export function openApiDocument(routes: readonly Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const schema = z.toJSONSchema(route.request, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
    delete schema.$schema;
    const minRole = route.access === 'public' ? undefined : route.access.minRole;
    const operation = {
      summary: route.summary,
      tags: [route.domain],
      ...(minRole === undefined
        ? { security: [] }
        : {
            security: [{ cognito: [] }],
            'x-minimum-role': minRole,
            description: `Minimum role: ${minRole} (${roleNames[minRole]}), within the user's organizations.`,
          }),
      ...(route.method === 'GET'
        ? {}
        : { requestBody: { required: true, content: { 'application/json': { schema } } } }),
      responses: {
        '200': { description: 'Success' },
        '400': { description: 'Invalid request: the body names what is wrong', content: errorContent },
        ...(minRole === undefined
          ? {}
          : {
              '401': { description: 'Not signed in, or the access token expired', content: errorContent },
              '403': { description: 'Role too low or organization not accessible', content: errorContent },
            }),
        '413': { description: 'Request body too large', content: errorContent },
      },
    };
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Argentum building-IoT platform API',
      version: '1.0.0',
      description:
        'Every call is JSON over HTTPS. Signed-in calls carry the access token as `Authorization: Bearer`; ' +
        'the refresh token travels only in an httpOnly cookie.',
    },
    components: {
      securitySchemes: { cognito: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    paths,
  };
}

const errorContent = {
  'application/json': {
    schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
};
