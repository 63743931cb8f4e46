import type { JsonText } from '../lib/json-text';
import type { Context } from 'aws-lambda';
import type { RoleNumber } from '@argentum/contracts';
import type { ApiAnswerBody, ApiBody, ApiCall, ApiCallName } from '@argentum/contracts/api';
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

/**
 * What a route handler returns; the body is sent as JSON and is what its call's response schema says
 * (or is that JSON already, as text).
 */
export interface RouteResult<Body = unknown> {
  status?: number;
  body: Body | JsonText<Body>;
  cookies?: string[];
  headers?: Record<string, string>;
}

/**
 * Who may call a route: anybody, or a signed-in user with at least `minRole` in one of their
 * organizations. That is only the gate: each use case then decides with the caller's role in the
 * organization of every id the request names.
 */
export type Access = 'public' | { minRole: RoleNumber };

/** What a route adds to its call (contracts/src/api.ts): where it runs, who may call it, what it does. */
interface RouteBase<Name extends ApiCallName> {
  domain: ApiDomain;
  summary: string;
  /** Largest accepted body in bytes; 64 KiB when not set. */
  maxBodyBytes?: number;
  call: ApiCall<Name>;
}

type Handler<Body, Answer, User extends AuthUser | undefined, Ports> = (
  request: RouteRequest<Body, User, Ports>,
) => Promise<RouteResult<Answer>>;

export interface PublicRouteDefinition<Name extends ApiCallName, Ports> extends RouteBase<Name> {
  access: 'public';
  handler: Handler<ApiBody<Name>, ApiAnswerBody<Name>, undefined, Ports>;
}

export interface ProtectedRouteDefinition<Name extends ApiCallName, Ports> extends RouteBase<Name> {
  access: { minRole: RoleNumber };
  handler: Handler<ApiBody<Name>, ApiAnswerBody<Name>, AuthUser, Ports>;
}

/**
 * A route as the table holds it: its call's name, method, path and request schema, and a handler
 * needing `Ports`. The route table holds `Route` (ports `never`): enough for CDK, the OpenAPI document
 * and the checks, which never call a handler.
 */
export type Route<Ports = never> = Omit<RouteBase<ApiCallName>, 'call'> &
  Pick<ApiCall, 'name' | 'method' | 'path' | 'request'> &
  (
    | { access: 'public'; handler: Handler<unknown, unknown, undefined, Ports> }
    | { access: { minRole: RoleNumber }; handler: Handler<unknown, unknown, AuthUser, Ports> }
  );

/** What every protected route needs: the user store, to read the caller on each request. */
export interface RoutePorts {
  users: Pick<UserStore, 'get'>;
}

/**
 * Declares the routes of a domain whose handlers need `Ports`: each binds a handler to a call of the
 * contracts, and the generics type its body from the call's request schema, its answer from the
 * call's answer schema (`api-answers.ts`, types only) and its `user` from its `access`.
 */
export function routesFor<Ports extends RoutePorts>() {
  // Separate overloads type each handler's `user` from its `access`; a union parameter would not.
  function route<Name extends ApiCallName>(definition: PublicRouteDefinition<Name, Ports>): Route<Ports>;
  function route<Name extends ApiCallName>(definition: ProtectedRouteDefinition<Name, Ports>): Route<Ports>;
  function route<Name extends ApiCallName>(
    definition: PublicRouteDefinition<Name, Ports> | ProtectedRouteDefinition<Name, Ports>,
  ): Route<Ports> {
    const { call, ...rest } = definition;
    return { ...call, ...rest } as unknown as Route<Ports>;
  }
  return route;
}

export const routeKey = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** The Lambda context, extended by the middlewares with what they established. */
export interface RouteContext extends Context {
  body: unknown;
  user: AuthUser | undefined;
}
