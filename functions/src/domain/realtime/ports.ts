/** A browser's open real-time connection, as the authorizer admitted it. */
export interface RealtimeConnection {
  /** The MQTT client id: IoT Core (and the local broker) disconnect a connection by it. */
  clientId: string;
  userId: string;
  /** The organizations whose messages the connection was granted. */
  orgIds: string[];
  /** When this grant was recorded (ms since the epoch); tells a connection recorded again since it was read. */
  authorizedAt: number;
  /** Epoch seconds after which the broker has dropped the connection anyway (and the record may go). */
  expiresAt: number;
}

/** Where the authorizer records the connections it admits (the DynamoDB adapter is stores/connections.ts). */
export interface ConnectionRegistry {
  /**
   * Binds a client id to a user until `expiresAt` (epoch seconds): true when it is free, expired or
   * already theirs; false when another user holds it (who would otherwise take over their page).
   */
  claim(clientId: string, userId: string, expiresAt: number, nowSeconds: number): Promise<boolean>;
  /** Records a connection, replacing an earlier record of the same user and client id. */
  record(connection: RealtimeConnection): Promise<void>;
  /** The recorded connections of a user (strongly consistent: a record written before is seen). */
  ofUser(userId: string): Promise<RealtimeConnection[]>;
  /** Forgets a connection, unless it was recorded again since it was read (a reconnect keeps its record). */
  forget(connection: RealtimeConnection): Promise<void>;
}

/** The broker's side: closes a client's connection (IoT Core's DeleteConnection; aedes locally). */
export interface ConnectionCloser {
  /** Closes the connection of this client id; one that is already gone is not an error. */
  disconnect(clientId: string): Promise<void>;
}
