import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import type { RoleNumber } from '@argentum/events/contracts';
import type { UserStore } from '../domain/users/ports';
import type { AuthUser } from '../domain/users/user';

/**
 * The Lambdas the API is grouped into: one per domain (fewer cold starts, least-privilege IAM).
 * `floorplans` takes plan uploads apart from `floors`: the floors Lambda, read on every floor view,
 * does not load the SVG sanitizer.
 */
export type ApiDomain =
  | 'auth'
  | 'users'
  | 'tree'
  | 'floors'
  | 'floorplans'
  | 'devices'
  | 'control'
  | 'data'
  | 'notifications'
  | 'integrations';

export const apiDomains: readonly ApiDomain[] = [
  'auth',
  'users',
  'tree',
  'floors',
  'floorplans',
  'devices',
  'control',
  'data',
  'notifications',
  'integrations',
];

/** The API Gateway HTTP API (payload 2.0) event, with the JWT authorizer's claims when present. */
export interface ApiEvent {
  version: string;
  routeKey: string;
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded: boolean;
  requestContext: {
    requestId: string;
    http: { method: string; path: string; sourceIp: string; userAgent: string };
    authorizer?: {
      jwt?: { claims: Record<string, string | number | boolean | string[]>; scopes?: string[] | null };
    };
  };
}

export interface ApiResponse {
  statusCode: number;
  headers?: Record<string, string>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
}

/**
 * What a route handler receives: the validated body, the signed-in user, the request's cookies and
 * client address, and the ports its Lambda entry point wired (the composition root).
 */
export interface RouteRequest<Body, User extends AuthUser | undefined, Ports> {
  body: Body;
  user: User;
  cookies: Record<string, string>;
  requestId: string;
  /**
   * The client's address: the viewer's as CloudFront saw it when the request provably came through
   * the distribution, API Gateway's `sourceIp` otherwise (http/client-address.ts).
   */
  sourceIp: string;
  /** The Bearer token of the Authorization header, when there is one (verified only on protected routes). */
  bearerToken: string | undefined;
  ports: Ports;
}

/** What a route handler returns; the body is sent as JSON. */
export interface RouteResult {
  status?: number;
  body?: unknown;
  cookies?: string[];
  headers?: Record<string, string>;
}

/**
 * Who may call a route: anybody, or a signed-in user with at least `minRole` in one of their
 * organizations. That is only the gate: each use case then decides with the caller's role in the
 * organization of every id the request names.
 */
export type Access = 'public' | { minRole: RoleNumber };

interface RouteBase<Schema extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  domain: ApiDomain;
  summary: string;
  request: Schema;
  /** Largest accepted body in bytes; 64 KiB when not set. */
  maxBodyBytes?: number;
}

export interface PublicRoute<Schema extends z.ZodType, Ports> extends RouteBase<Schema> {
  access: 'public';
  handler: (request: RouteRequest<z.infer<Schema>, undefined, Ports>) => Promise<RouteResult>;
}

export interface ProtectedRoute<Schema extends z.ZodType, Ports> extends RouteBase<Schema> {
  access: { minRole: RoleNumber };
  handler: (request: RouteRequest<z.infer<Schema>, AuthUser, Ports>) => Promise<RouteResult>;
}

/**
 * A route whose handler needs `Ports`. The route table holds `Route` (ports `never`): enough for CDK,
 * the OpenAPI document and the checks, which never call a handler.
 */
export type Route<Schema extends z.ZodType = z.ZodType, Ports = never> =
  PublicRoute<Schema, Ports> | ProtectedRoute<Schema, Ports>;

/** What every protected route needs: the user store, to read the caller on each request. */
export interface RoutePorts {
  users: Pick<UserStore, 'get'>;
}

/**
 * Declares the routes of a domain whose handlers need `Ports`; the generic keeps each handler's body
 * type tied to its schema and its `user` to its `access`.
 */
export function routesFor<Ports extends RoutePorts>() {
  // Separate overloads type each handler's `user` from its `access`; a union parameter would not.
  function route<Schema extends z.ZodType>(definition: PublicRoute<Schema, Ports>): Route<z.ZodType, Ports>;
  function route<Schema extends z.ZodType>(
    definition: ProtectedRoute<Schema, Ports>,
  ): Route<z.ZodType, Ports>;
  function route<Schema extends z.ZodType>(definition: Route<Schema, Ports>): Route<z.ZodType, Ports> {
    return definition as unknown as Route<z.ZodType, Ports>;
  }
  return route;
}

export const routeKey = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** The Lambda context, extended by the middlewares with what they established. */
export interface RouteContext extends Context {
  body: unknown;
  user: AuthUser | undefined;
}
