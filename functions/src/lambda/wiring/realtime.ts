/** Closing a user's open real-time connections (IoT Core DeleteConnection; locally the broker). */
import { iotConnectionCloser } from '../../adapters/iot-connections';
import { revokeRealtimeAccess } from '../../domain/realtime/revocation';
import { dynamoConnectionRegistry } from '../../stores/connections';
import { clock, logger } from './core';

export const connections = dynamoConnectionRegistry;

/** Closes a user's open real-time connections to organizations whose access they lose. */
export const realtimeRevocation = {
  revoke: (userId: string, orgIds: readonly string[]) =>
    revokeRealtimeAccess({ connections, broker: iotConnectionCloser, clock, logger }, userId, orgIds),
};
