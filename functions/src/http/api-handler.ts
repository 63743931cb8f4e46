import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { config } from '../config';
import { unauthenticated } from '../domain/errors';
import { clientAddress } from './client-address';
import { acceptsGzip } from './encoding';
import { jsonResponse } from './error-mapper';
import { flushMetrics } from '../adapters/emf-metrics';
import { log, withLogFields } from './log';
import './validation-messages';
import { parseCookies } from './cookies';
import { authContext, errorMapper, originCheck, validatedBody } from './middleware';
import type { ApiEvent, ApiResponse, Route, RouteContext, RoutePorts } from './types';
import { routeKey } from './types';

function routeHandler<Ports extends RoutePorts>(route: Route<Ports>, ports: Ports) {
  const described = route as unknown as Route;
  return middy<ApiEvent, ApiResponse, Error, RouteContext>()
    .use(errorMapper())
    .use(originCheck(config.originSecret, config.originRequired))
    .use(authContext(described, ports))
    .use(validatedBody(described))
    .handler(async (event, context) => {
      const common = {
        body: context.body,
        cookies: parseCookies(event.cookies),
        requestId: event.requestContext.requestId,
        sourceIp: clientAddress(event, config.originSecret),
        bearerToken: /^Bearer (\S+)$/i.exec(event.headers.authorization ?? '')?.[1],
        ports,
      };
      let result;
      if (route.access === 'public') {
        result = await route.handler({ ...common, user: undefined });
      } else {
        // authContext has established the user or refused the request.
        if (!context.user) throw unauthenticated();
        result = await route.handler({ ...common, user: context.user });
      }
      return jsonResponse(
        result.status ?? 200,
        result.body ?? {},
        {
          ...(result.cookies ? { cookies: result.cookies } : {}),
          ...(result.headers ? { headers: result.headers } : {}),
        },
        { gzip: acceptsGzip(event.headers['accept-encoding']) },
      );
    });
}

/**
 * One Lambda handler for a domain's routes, dispatching on the HTTP API route key. `ports` are the
 * adapters the Lambda entry point (the composition root) wired for them.
 */
export function createApiHandler<Ports extends RoutePorts>(routes: readonly Route<Ports>[], ports: Ports) {
  const byKey = new Map(
    routes.map((r) => [routeKey(r), { name: `${r.method} ${r.path}`, handle: routeHandler(r, ports) }]),
  );
  return async (event: ApiEvent, context: Context): Promise<ApiResponse> => {
    const route = byKey.get(event.routeKey);
    if (!route) return jsonResponse(404, { message: 'Not found.' });
    const started = Date.now();
    // Every line logged for this request names it (and, once known, its user and organization).
    return withLogFields({ requestId: event.requestContext.requestId }, async () => {
      let response: ApiResponse | undefined;
      try {
        response = await route.handle(event, context as RouteContext);
        return response;
      } finally {
        // One line per request with its outcome (errors are answered by errorMapper, inside).
        log('info', 'request', {
          route: route.name,
          status: response?.statusCode,
          durationMs: Date.now() - started,
        });
        // The platform's metrics counted while handling it (adapters/emf-metrics.ts).
        flushMetrics();
      }
    });
  };
}
