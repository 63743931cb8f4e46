import { isBrowserClientId } from '@argentum/contracts/messaging';
import { memberOrgIds } from '@argentum/contracts';
import type { Clock } from '../ports';
import type { UserStore } from '../users/ports';
import { sessionOpen, type UserRecord } from '../users/user';
import type { ConnectionClaims } from './connection-token';
import type { ConnectionRegistry } from './ports';

/** What the real-time authorizer needs. */
export interface RealtimeAuthPorts {
  users: Pick<UserStore, 'get'>;
  /** Where admitted connections are recorded, so a change to the user's access can close them. */
  connections: Pick<ConnectionRegistry, 'claim' | 'record'>;
  clock: Clock;
}

/** How often a connected browser's access is checked again (IoT Core re-invokes the authorizer). */
export const REAUTHORIZE_AFTER_SECONDS = 300;

/** How long a connection may stay open at most (IoT Core's limit); its record lives as long. */
export const DISCONNECT_AFTER_SECONDS = 24 * 3600;

/** What the broker knows of a connection being admitted. */
export interface ConnectionAttempt {
  /**
   * The connection token's claims, read only once its signature was verified (IoT Core does it before
   * invoking the authorizer; locally the broker): undefined when there is none.
   */
  claims: ConnectionClaims | undefined;
  /** The MQTT client id; it must be the one the token was minted for (a browser id, `web-<uuid>`). */
  clientId: string | undefined;
}

export interface RealtimeGrant {
  principalId: string;
  /** The user the connection acts for (their own command outcomes are theirs alone). */
  userId: string;
  /** Organizations whose topics the connection may subscribe to and receive from. */
  orgIds: string[];
}

/**
 * Decides whether a browser may connect to the real-time channel, and to which organizations'
 * topics, and records the admitted connection (its client id) so that revoking the user's access
 * closes it. The connection token (connection-token.ts) names the user, the session, the client id
 * and the organizations the page watches, and lasts as long as a connection may: IoT Core presents it
 * again every REAUTHORIZE_AFTER_SECONDS, and each time the user record decides (a deleted user, an
 * ended session, a lost organization), so a live session stays up and a revoked one does not.
 *
 * Only browser client ids (`web-<uuid>`) are admitted, and only the one the token was minted for: a
 * device's id (its thing name) never has that form, so no user can take over a device's connection
 * (IoT Core drops the older connection of a client id), nor another user's page.
 *
 * The user is read again after the record is written: a change saved before that read is seen here,
 * and a change saved after it finds the record (revocation reads it after saving), so a connection
 * admitted while its user loses access never keeps what was taken.
 */
export async function authorizeRealtime(
  deps: RealtimeAuthPorts,
  attempt: ConnectionAttempt,
): Promise<RealtimeGrant | undefined> {
  const { claims, clientId } = attempt;
  if (!claims || !clientId || !isBrowserClientId(clientId) || claims.cid !== clientId) return undefined;
  const now = deps.clock.now();
  if (claims.exp <= Math.floor(now.getTime() / 1000)) return undefined;
  const admitted = (user: UserRecord | undefined): user is UserRecord =>
    user !== undefined && sessionOpen(user, claims.sid);
  const scoped = (user: UserRecord) => {
    const member = new Set(memberOrgIds(user.orgRoles));
    return claims.orgs.filter((orgId) => member.has(orgId));
  };

  const user = await deps.users.get(claims.sub);
  if (!admitted(user)) return undefined;
  const orgIds = scoped(user);
  if (orgIds.length === 0) return undefined;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  // A client id belongs to the first user who connects under it: another user's page is never taken over.
  if (
    !(await deps.connections.claim(clientId, user.userId, nowSeconds + DISCONNECT_AFTER_SECONDS, nowSeconds))
  )
    return undefined;
  await deps.connections.record({
    clientId,
    userId: user.userId,
    orgIds,
    authorizedAt: now.getTime(),
    expiresAt: Math.floor(now.getTime() / 1000) + DISCONNECT_AFTER_SECONDS,
  });

  const latest = await deps.users.get(user.userId);
  if (!admitted(latest)) return undefined;
  const kept = new Set(scoped(latest));
  const granted = orgIds.filter((orgId) => kept.has(orgId));
  if (granted.length === 0) return undefined;
  return {
    principalId: user.userId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 128),
    userId: user.userId,
    orgIds: granted,
  };
}
