import { assertConfigured } from '../config';
import { poolAccessTokens } from '../adapters/access-token';
import {
  authorizeRealtime,
  DISCONNECT_AFTER_SECONDS,
  REAUTHORIZE_AFTER_SECONDS,
} from '../domain/realtime/authorizer';
import { systemClock } from '../domain/ports';
import { dynamoConnectionRegistry } from '../stores/connections';
import { dynamoUserStore } from '../stores/users';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

/** The IoT Core custom authorizer event (MQTT over WebSocket with username/password). */
export interface IotAuthorizerEvent {
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

function tokenOf(event: IotAuthorizerEvent): string | undefined {
  const password = event.protocolData?.mqtt?.password;
  // IoT Core hands the MQTT password over base64-encoded.
  if (password) return Buffer.from(password, 'base64').toString('utf8');
  return event.token;
}

const arn = (kind: string, resource: string) =>
  `arn:aws:iot:${process.env.AWS_REGION ?? '*'}:${process.env.AWS_ACCOUNT_ID ?? '*'}:${kind}/${resource}`;

export async function handler(event: IotAuthorizerEvent): Promise<IotAuthorizerResult> {
  // The client id names the connection in the policy and in the record that lets a change to the
  // user's access close it (IoT Core's DeleteConnection).
  const clientId = event.protocolData?.mqtt?.clientId;
  const grant = await authorizeRealtime(
    {
      users: dynamoUserStore,
      accessTokens: poolAccessTokens,
      connections: dynamoConnectionRegistry,
      clock: systemClock,
    },
    { token: tokenOf(event), clientId },
  );
  const deny: IotAuthorizerResult = {
    isAuthenticated: false,
    principalId: 'anonymous',
    disconnectAfterInSeconds: 300,
    refreshAfterInSeconds: 300,
    policyDocuments: [],
  };
  if (!grant || !clientId || grant.orgIds.length === 0) return deny;
  const policy = {
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Action: 'iot:Connect', Resource: arn('client', clientId) },
      {
        Effect: 'Allow',
        Action: 'iot:Subscribe',
        Resource: grant.orgIds.map((o) => arn('topicfilter', `${o}/*`)),
      },
      { Effect: 'Allow', Action: 'iot:Receive', Resource: grant.orgIds.map((o) => arn('topic', `${o}/*`)) },
    ],
  };
  return {
    isAuthenticated: true,
    principalId: grant.principalId,
    disconnectAfterInSeconds: DISCONNECT_AFTER_SECONDS,
    refreshAfterInSeconds: REAUTHORIZE_AFTER_SECONDS,
    policyDocuments: [JSON.stringify(policy)],
  };
}
