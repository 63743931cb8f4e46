import { createApiHandler } from '../http/api-handler';
import { floorsRoutes } from '../routes/floors.routes';
import { files } from './wiring/files';
import { clock, tree, users } from './wiring/core';

export const handler = createApiHandler(floorsRoutes, { users, tree, clock, files });
