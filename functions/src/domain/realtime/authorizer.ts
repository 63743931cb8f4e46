import { memberOrgIds } from '@argentum/events/contracts';
import type { Clock } from '../ports';
import type { UserStore } from '../users/ports';
import { sessionOpen, type UserRecord } from '../users/user';
import type { ConnectionRegistry } from './ports';

/** The outcome of verifying an access token (signature, issuer, expiry, token use, client). */
export type TokenCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; expired: boolean };

/** What the real-time authorizer needs. */
export interface RealtimeAuthPorts {
  users: Pick<UserStore, 'get'>;
  accessTokens: { verify(token: string): Promise<TokenCheck> };
  /** Where admitted connections are recorded, so a change to the user's access can close them. */
  connections: Pick<ConnectionRegistry, 'record'>;
  clock: Clock;
}

/** How often a connected browser's access is checked again (IoT Core re-invokes the authorizer). */
export const REAUTHORIZE_AFTER_SECONDS = 300;

/** How long a connection may stay open at most (IoT Core's limit); its record lives as long. */
export const DISCONNECT_AFTER_SECONDS = 24 * 3600;

/** What the broker knows of a connection being admitted. */
export interface ConnectionAttempt {
  /** The MQTT connection's password: the user's access token. */
  token: string | undefined;
  /** The MQTT client id; a connection without one could not be closed later, so it is refused. */
  clientId: string | undefined;
}

export interface RealtimeGrant {
  principalId: string;
  /** Organizations whose topics the connection may subscribe to and receive from. */
  orgIds: string[];
}

/**
 * Decides whether a browser may connect to the real-time channel, and to which organizations'
 * topics, and records the admitted connection (its client id) so that revoking the user's access
 * closes it. The password of the MQTT connection is the user's access token.
 *
 * The user is read again after the record is written: a change saved before that read is seen here,
 * and a change saved after it finds the record (revocation reads it after saving), so a connection
 * admitted while its user loses access never keeps what was taken.
 */
export async function authorizeRealtime(
  deps: RealtimeAuthPorts,
  attempt: ConnectionAttempt,
): Promise<RealtimeGrant | undefined> {
  const { token, clientId } = attempt;
  if (!token || !clientId) return undefined;
  const check = await deps.accessTokens.verify(token);
  if (!check.ok || typeof check.claims.sub !== 'string') return undefined;
  const authTime = check.claims.auth_time;
  const admitted = (user: UserRecord | undefined): user is UserRecord =>
    user !== undefined && sessionOpen(user, authTime);

  const user = await deps.users.get(check.claims.sub);
  if (!admitted(user)) return undefined;
  const orgIds = memberOrgIds(user.orgRoles);
  if (orgIds.length === 0) return undefined;
  const now = deps.clock.now();
  await deps.connections.record({
    clientId,
    userId: user.userId,
    orgIds,
    authorizedAt: now.getTime(),
    expiresAt: Math.floor(now.getTime() / 1000) + DISCONNECT_AFTER_SECONDS,
  });

  const latest = await deps.users.get(user.userId);
  if (!admitted(latest)) return undefined;
  const kept = new Set(memberOrgIds(latest.orgRoles));
  const granted = orgIds.filter((orgId) => kept.has(orgId));
  if (granted.length === 0) return undefined;
  return {
    principalId: user.userId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 128),
    orgIds: granted,
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
