import { memberOrgIds } from '@argentum/events/contracts';
import type { UserStore } from '../users/ports';
import { sessionOpen } from '../users/user';

/** The outcome of verifying an access token (signature, issuer, expiry, token use, client). */
export type TokenCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; expired: boolean };

/** What the real-time authorizer needs. */
export interface RealtimeAuthPorts {
  users: Pick<UserStore, 'get'>;
  accessTokens: { verify(token: string): Promise<TokenCheck> };
}

/** How often a connected browser's access is checked again (IoT Core re-invokes the authorizer). */
export const REAUTHORIZE_AFTER_SECONDS = 300;

export interface RealtimeGrant {
  principalId: string;
  /** Organizations whose topics the connection may subscribe to and receive from. */
  orgIds: string[];
}

/**
 * Decides whether a browser may connect to the real-time channel, and to which organizations'
 * topics. The password of the MQTT connection is the user's access token.
 */
export async function authorizeRealtime(
  deps: RealtimeAuthPorts,
  token: string | undefined,
): Promise<RealtimeGrant | undefined> {
  if (!token) return undefined;
  const check = await deps.accessTokens.verify(token);
  if (!check.ok || typeof check.claims.sub !== 'string') return undefined;
  const user = await deps.users.get(check.claims.sub);
  if (!user || !sessionOpen(user, check.claims.auth_time)) return undefined;
  return {
    principalId: user.userId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 128),
    orgIds: memberOrgIds(user.orgRoles),
  };
}

/** MQTT topic-filter match with `+` and `#` wildcards. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/** Whether a grant allows subscribing to (or receiving) a topic or filter: only under its organizations. */
export function mayReceive(grant: RealtimeGrant, topicOrFilter: string): boolean {
  const [orgId, ...rest] = topicOrFilter.split('/');
  if (!orgId || orgId === '+' || orgId === '#' || rest.length === 0) return false;
  return grant.orgIds.includes(orgId);
}
