import { createApiHandler } from '../http/api-handler';
import { floorsRoutes } from '../routes/floors.routes';
import { clock, tree, users } from './wiring/core';

export const handler = createApiHandler(floorsRoutes, { users, tree, clock });
