import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { unauthenticated } from '../domain/errors';
import { jsonResponse } from './error-mapper';
import './validation-messages';
import { parseCookies } from './cookies';
import { authContext, errorMapper, requestLog, validatedBody } from './middleware';
import type { ApiEvent, ApiResponse, Route, RouteContext } from './types';
import { routeKey } from './types';

function routeHandler(route: Route) {
  return middy<ApiEvent, ApiResponse, Error, RouteContext>()
    .use(requestLog(route))
    .use(errorMapper())
    .use(authContext(route))
    .use(validatedBody(route))
    .handler(async (event, context) => {
      const common = {
        body: context.body,
        cookies: parseCookies(event.cookies),
        requestId: event.requestContext.requestId,
      };
      let result;
      if (route.access === 'public') {
        result = await route.handler({ ...common, user: undefined });
      } else {
        // authContext has established the user or refused the request.
        if (!context.user) throw unauthenticated();
        result = await route.handler({ ...common, user: context.user });
      }
      return jsonResponse(result.status ?? 200, result.body ?? {}, {
        ...(result.cookies ? { cookies: result.cookies } : {}),
        ...(result.headers ? { headers: result.headers } : {}),
      });
    });
}

/** One Lambda handler for a domain's routes, dispatching on the HTTP API route key. */
export function createApiHandler(routes: readonly Route[]) {
  const byKey = new Map(routes.map((r) => [routeKey(r), routeHandler(r)]));
  return async (event: ApiEvent, context: Context): Promise<ApiResponse> => {
    const handler = byKey.get(event.routeKey);
    if (!handler) return jsonResponse(404, { message: 'Not found.' });
    return handler(event, context as RouteContext);
  };
}
