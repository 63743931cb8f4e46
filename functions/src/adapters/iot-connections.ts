import type { ConnectionCloser } from '../domain/realtime/ports';

/** Longest wait for IoT Core to close a connection; the caller's request is waiting on it. */
const DISCONNECT_TIMEOUT_MS = 3000;

/**
 * Closes MQTT connections through the IoT data plane's DeleteConnection (the local stack's shim
 * answers the same request by closing the aedes client). The session is cleaned and no last-will
 * message is sent: the connection is being cut off, not lost.
 */
export const iotConnectionCloser: ConnectionCloser = {
  async disconnect(clientId) {
    try {
      // Loaded on first use: closing connections is rare.
      const { DeleteConnectionCommand, iotData } = await import('../aws/iot-data');
      await iotData().send(
        new DeleteConnectionCommand({ clientId, cleanSession: true, preventWillMessage: true }),
        { abortSignal: AbortSignal.timeout(DISCONNECT_TIMEOUT_MS) },
      );
    } catch (error) {
      // Not connected (any more): nothing is left to close.
      if (error instanceof Error && error.name === 'ResourceNotFoundException') return;
      throw error;
    }
  },
};
