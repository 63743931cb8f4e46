import { createApiHandler } from '../http/api-handler';
import { dataRoutes } from '../routes/data.routes';
import { users } from './wiring/core';

export const handler = createApiHandler(dataRoutes, { users });
