import { assertConfigured } from '../config';
import { ENV } from '../environment';
import { createApiHandler } from '../http/api-handler';
import { authRoutes } from '../routes/auth.routes';
import { accountPorts } from './wiring/accounts';

// Forgot-password queues its mail: without the queue the function fails its cold start.
assertConfigured(process.env, [ENV.mailQueueUrl]);

export const handler = createApiHandler(authRoutes, accountPorts());
