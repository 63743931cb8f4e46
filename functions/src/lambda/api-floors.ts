import { assertConfigured } from '../config';
import { ENV } from '../environment';
import { createApiHandler } from '../http/api-handler';
import { floorsRoutes } from '../routes/floors.routes';
import { files, planUrls } from './wiring/files';
import { clock, tree, users } from './wiring/core';

// Plan URLs are signed with a key held in a secret: without it the function fails its cold start.
assertConfigured(process.env, [ENV.planSigningSecretId, ENV.planKeyPairId]);

export const handler = createApiHandler(floorsRoutes, { users, tree, clock, files, planUrls });
