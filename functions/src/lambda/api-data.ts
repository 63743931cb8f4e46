import { createApiHandler } from '../http/api-handler';
import { dataRoutes } from '../routes/data.routes';
import { exportRoutes } from '../routes/export.routes';
import { users } from './wiring/core';
import { exportPorts } from './wiring/export';

export const handler = createApiHandler([...dataRoutes, ...exportRoutes], { users, ...exportPorts });
