import type { Clock, Logger } from '../ports';
import type { ConnectionCloser, ConnectionRegistry, RealtimeConnection } from './ports';

/** What revoking real-time access needs. */
export interface RevocationPorts {
  connections: Pick<ConnectionRegistry, 'ofUser' | 'forget'>;
  broker: ConnectionCloser;
  clock: Clock;
  logger: Logger;
}

const described = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message } : { error: String(error) };

/**
 * Stops delivery of these organizations' messages to the user's open connections: every recorded
 * connection that was granted any of them is closed and forgotten. A browser then reconnects with its
 * token and is admitted again with what the user keeps (nothing, once signed out or deleted).
 *
 * Called after the change to the user was saved, so it never throws: a failure is logged and the
 * authorizer's re-check (REAUTHORIZE_AFTER_SECONDS) closes the gap. One connection failing to close
 * does not keep the others open. Idempotent.
 */
export async function revokeRealtimeAccess(
  deps: RevocationPorts,
  userId: string,
  orgIds: readonly string[],
): Promise<void> {
  if (orgIds.length === 0) return;
  let connections: RealtimeConnection[];
  try {
    connections = await deps.connections.ofUser(userId);
  } catch (error) {
    deps.logger.log('error', 'real-time connections could not be read; the re-authorization closes them', {
      userId,
      error: described(error),
    });
    return;
  }
  const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
  const affected = connections.filter(
    (connection) =>
      connection.expiresAt > nowSeconds && connection.orgIds.some((orgId) => orgIds.includes(orgId)),
  );
  await Promise.all(
    affected.map(async (connection) => {
      try {
        await deps.broker.disconnect(connection.clientId);
      } catch (error) {
        deps.logger.log('error', 'a real-time connection could not be closed; the re-authorization does', {
          userId,
          clientId: connection.clientId,
          error: described(error),
        });
        return;
      }
      try {
        await deps.connections.forget(connection);
      } catch (error) {
        // A record left behind only costs a later revocation one more (harmless) disconnect.
        deps.logger.log('warn', 'a closed real-time connection could not be forgotten', {
          userId,
          clientId: connection.clientId,
          error: described(error),
        });
      }
    }),
  );
}
