import { poolAccessTokens } from '../adapters/access-token';
import { assertConfigured } from '../config';
import { ENV } from '../environment';
import { createApiHandler } from '../http/api-handler';
import { authRoutes } from '../routes/auth.routes';
import { accountPorts } from './wiring/accounts';

// Forgot-password queues its mail, and real-time connection tokens are signed with a key held in a
// secret: without either the function fails its cold start.
assertConfigured(process.env, [ENV.mailQueueUrl, ENV.realtimeSigningSecretId]);

export const handler = createApiHandler(authRoutes, { ...accountPorts(), accessTokens: poolAccessTokens });
