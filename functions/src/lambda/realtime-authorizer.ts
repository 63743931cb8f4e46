import { assertConfigured } from '../config';
import {
  authorizeRealtime,
  DISCONNECT_AFTER_SECONDS,
  REAUTHORIZE_AFTER_SECONDS,
} from '../domain/realtime/authorizer';
import { decodeConnectionToken } from '../domain/realtime/connection-token';
import { realtimePolicyDocuments } from '../domain/realtime/policy';
import { systemClock } from '../domain/ports';
import { dynamoConnectionRegistry } from '../stores/connections';
import { dynamoUserStore } from '../stores/users';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

/** The IoT Core custom authorizer event (MQTT over WebSocket, token and signature in the MQTT user name). */
export interface IotAuthorizerEvent {
  /** The value of the authorizer's token key name (`token`), whose signature IoT Core verified. */
  token?: string;
  signatureVerified?: boolean;
  protocols?: string[];
  protocolData?: {
    mqtt?: { username?: string; password?: string; clientId?: string };
    http?: { headers?: Record<string, string>; queryString?: string };
  };
  connectionMetadata?: { id?: string };
}

export interface IotAuthorizerResult {
  isAuthenticated: boolean;
  principalId: string;
  disconnectAfterInSeconds: number;
  refreshAfterInSeconds: number;
  policyDocuments: string[];
}

const arn = (kind: string, resource: string) =>
  `arn:aws:iot:${process.env.AWS_REGION ?? '*'}:${process.env.AWS_ACCOUNT_ID ?? '*'}:${kind}/${resource}`;

const deny: IotAuthorizerResult = {
  isAuthenticated: false,
  principalId: 'anonymous',
  disconnectAfterInSeconds: 300,
  refreshAfterInSeconds: 300,
  policyDocuments: [],
};

/**
 * Signing is enabled on the authorizer: IoT Core invokes this function only for a token whose
 * signature it verified with the public key (the API minted and signed it, POST /api/realtimeToken).
 * The token names the client id, which must be the connection's, and the organizations; the user
 * record decides, at connect and at every re-authorization (REAUTHORIZE_AFTER_SECONDS).
 */
export async function handler(event: IotAuthorizerEvent): Promise<IotAuthorizerResult> {
  const clientId = event.protocolData?.mqtt?.clientId;
  const claims = event.signatureVerified === true ? decodeConnectionToken(event.token) : undefined;
  const grant = await authorizeRealtime(
    { users: dynamoUserStore, connections: dynamoConnectionRegistry, clock: systemClock },
    { claims, clientId },
  );
  if (!grant || !clientId) return deny;
  const policyDocuments = realtimePolicyDocuments(arn, clientId, grant.userId, grant.orgIds);
  if (!policyDocuments) return deny;
  return {
    isAuthenticated: true,
    principalId: grant.principalId,
    // The token lasts as long as the connection may: re-authorizations keep a live session up.
    disconnectAfterInSeconds: DISCONNECT_AFTER_SECONDS,
    refreshAfterInSeconds: REAUTHORIZE_AFTER_SECONDS,
    policyDocuments,
  };
}
