import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import type { RoleNumber } from '@argentum/events/contracts';
import type { AuthUser } from '../domain/users/user';

/** The Lambdas the API is grouped into: one per domain (fewer cold starts, least-privilege IAM). */
export type ApiDomain =
  'auth' | 'users' | 'tree' | 'floors' | 'devices' | 'data' | 'notifications' | 'integrations';

export const apiDomains: readonly ApiDomain[] = [
  'auth',
  'users',
  'tree',
  'floors',
  'devices',
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

/** What a route handler receives: the validated body, the signed-in user and the request's cookies. */
export interface RouteRequest<Body, User extends AuthUser | undefined> {
  body: Body;
  user: User;
  cookies: Record<string, string>;
  requestId: string;
}

/** What a route handler returns; the body is sent as JSON. */
export interface RouteResult {
  status?: number;
  body?: unknown;
  cookies?: string[];
  headers?: Record<string, string>;
}

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

export interface PublicRoute<Schema extends z.ZodType> extends RouteBase<Schema> {
  access: 'public';
  handler: (request: RouteRequest<z.infer<Schema>, undefined>) => Promise<RouteResult>;
}

export interface ProtectedRoute<Schema extends z.ZodType> extends RouteBase<Schema> {
  access: { minRole: RoleNumber };
  handler: (request: RouteRequest<z.infer<Schema>, AuthUser>) => Promise<RouteResult>;
}

export type Route<Schema extends z.ZodType = z.ZodType> = PublicRoute<Schema> | ProtectedRoute<Schema>;

/** Declares a route; the generic keeps the handler's body type tied to its schema. */
// Separate overloads let TypeScript type each handler's `user` from its `access`; a union parameter would not.
export function route<Schema extends z.ZodType>(definition: PublicRoute<Schema>): Route;
// eslint-disable-next-line @typescript-eslint/unified-signatures
export function route<Schema extends z.ZodType>(definition: ProtectedRoute<Schema>): Route;
export function route<Schema extends z.ZodType>(definition: Route<Schema>): Route {
  return definition as unknown as Route;
}

export const routeKey = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** The Lambda context, extended by the middlewares with what they established. */
export interface RouteContext extends Context {
  body: unknown;
  user: AuthUser | undefined;
}
