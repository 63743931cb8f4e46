import type { MiddlewareObj } from '@middy/core';
import { DomainError, forbidden, sessionEnded, unauthenticated } from '../domain/errors';
import { highestRole } from '@argentum/contracts';
import { sessionOpen } from '../domain/users/user';
import { cameThroughCloudFront } from './client-address';
import { errorResponse } from './error-mapper';
import { addLogFields } from './log';
import { unstorableField } from './storable-body';
import type { ApiEvent, ApiResponse, Route, RouteContext, RoutePorts } from './types';

type Middleware = MiddlewareObj<ApiEvent, ApiResponse, Error, RouteContext>;

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** The answer to a request that reached the API without passing CloudFront (and its WAF). */
export const DIRECT_ACCESS_MESSAGE = 'Requests must come through the platform web address.';

/**
 * On AWS the API is reachable at its execute-api endpoint too, which WAF does not guard: a request
 * without CloudFront's origin secret is refused before any other work (no session lookup, no body
 * parsing). Locally there is no CloudFront, and nothing to bypass: `required` is off.
 */
export function originCheck(originSecret: string | undefined, required: boolean): Middleware {
  return {
    before: (request) => {
      if (required && !cameThroughCloudFront(request.event, originSecret)) {
        throw forbidden(DIRECT_ACCESS_MESSAGE);
      }
    },
  };
}

/** Maps every error to its documented status and message. Registered first, so it runs last. */
export function errorMapper(): Middleware {
  return {
    onError: (request) => {
      request.response = errorResponse(request.error, request.event.requestContext.requestId);
    },
  };
}

function rawBody(event: ApiEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Enforces the size limit, parses JSON and validates against the route's schema (unknown fields
 * rejected), then that the store can hold every value (`unstorableField`).
 */
export function validatedBody(route: Route): Middleware {
  const maxBytes = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return {
    before: (request) => {
      const { event, context } = request;
      let input: unknown;
      if (route.method === 'GET') {
        input = { ...event.queryStringParameters };
      } else {
        const text = rawBody(event);
        if (Buffer.byteLength(text) > maxBytes) {
          throw new DomainError('too-large', 'Request body is too large.');
        }
        const contentType = event.headers['content-type'] ?? '';
        if (text.trim() !== '' && !/^application\/json\b/i.test(contentType)) {
          throw new DomainError('unsupported-media-type', 'Request body must be JSON (application/json).');
        }
        try {
          input = text.trim() === '' ? {} : JSON.parse(text);
        } catch {
          throw new DomainError('validation', 'Request body must be valid JSON.');
        }
      }
      const parsed = route.request.safeParse(input);
      if (!parsed.success) {
        throw new DomainError('validation', parsed.error.issues[0]?.message ?? 'Invalid request.');
      }
      const unstorable = unstorableField(parsed.data);
      if (unstorable) throw new DomainError('validation', unstorable);
      context.body = parsed.data;
      // The organization a request concerns, when it names one (orgId or the documented orgID).
      const named = parsed.data as Record<string, unknown> | null;
      const orgId = named && typeof named === 'object' ? (named.orgId ?? named.orgID) : undefined;
      if (typeof orgId === 'string' && orgId !== '') addLogFields({ orgId });
    },
  };
}

/**
 * Establishes the signed-in user from the JWT authorizer's claims. Roles and organizations are read
 * from the store on every request, so a demotion or deletion applies to the very next call. The
 * route's minimum role is a gate (the caller has it in at least one organization); each use case
 * decides with the caller's role in the organization the request touches.
 */
export function authContext(route: Route, ports: RoutePorts): Middleware {
  return {
    before: async (request) => {
      request.context.user = undefined;
      if (route.access === 'public') return;
      const claims = request.event.requestContext.authorizer?.jwt?.claims;
      const subject = claims?.sub;
      if (typeof subject !== 'string' || subject === '') throw unauthenticated();
      const user = await ports.users.get(subject);
      if (!user) throw unauthenticated();
      // A session the user has signed out of (or that a password change ended) is over.
      if (!sessionOpen(user, claims?.auth_time)) throw sessionEnded();
      if (highestRole(user.orgRoles) < route.access.minRole) throw forbidden();
      request.context.user = user;
      addLogFields({ userId: subject });
    },
  };
}
