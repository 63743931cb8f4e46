import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the vendor stand-ins share: JSON answers, bearer tokens and access tokens that expire. */

export const ACCESS_TOKEN_SECONDS = 3600;

export const json = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

export const bearer = (request: IncomingMessage) =>
  /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];

export function parse(body: Buffer | string): unknown {
  try {
    const text = body.toString();
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Access tokens a stand-in issued, each with its expiry. */
export class AccessTokens {
  private readonly expiries = new Map<string, number>();

  issue(prefix: string): string {
    const token = `${prefix}${randomBytes(12).toString('hex')}`;
    this.expiries.set(token, Date.now() + ACCESS_TOKEN_SECONDS * 1000);
    return token;
  }

  /** Issued by this stand-in, expired or not. */
  known(token: string | undefined): boolean {
    return token !== undefined && this.expiries.has(token);
  }

  valid(token: string | undefined): boolean {
    return token !== undefined && (this.expiries.get(token) ?? 0) > Date.now();
  }

  expireAll(): void {
    for (const token of this.expiries.keys()) this.expiries.set(token, Date.now() - 1);
  }
}

/** One vendor's API: answers a request whose path starts with its prefix. */
export type VendorHandler = (
  request: IncomingMessage,
  url: URL,
  body: Buffer,
  response: ServerResponse,
) => void;
