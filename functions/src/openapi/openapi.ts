import * as z from 'zod/mini';
import type { Route } from '../http/types';
import { roleNames } from '@argentum/contracts';
import { apiAnswers, type ApiAnswerOf } from '@argentum/contracts/api-answers';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as JsonSchema;
  delete json.$schema;
  return json;
}

const errorContent = {
  'application/json': {
    schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
};
const error = (description: string) => ({ description, content: errorContent });

/**
 * The OpenAPI 3.1 description of the API, generated from the route table: each call's request schema
 * comes from the contracts (contracts/src/api.ts), its answer schema and own errors from their answers
 * (contracts/src/api-answers.ts).
 */
export function openApiDocument(routes: readonly Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const minRole = route.access === 'public' ? undefined : route.access.minRole;
    const answer: ApiAnswerOf = apiAnswers[route.name];
    const success = {
      description: 'Success',
      content: { 'application/json': { schema: jsonSchema(answer.response, 'output') } },
    };
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
        : {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.request, 'input') } },
            },
          }),
      responses: {
        '200': success,
        ...(answer.creates ? { '201': { ...success, description: 'Created' } } : {}),
        '400': error('Invalid request: the body names what is wrong'),
        ...(minRole === undefined
          ? {}
          : {
              '401': error('Not signed in, or the access token expired'),
              '403': error('Role too low or organization not accessible'),
            }),
        '413': error('Request body too large'),
        ...Object.fromEntries(
          Object.entries(answer.errors ?? {}).map(([status, description]) => [status, error(description)]),
        ),
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
