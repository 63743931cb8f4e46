import { createApiHandler } from '../http/api-handler';
import { controlRoutes } from '../routes/control.routes';
import { users } from './wiring/core';
import { controlPorts } from './wiring/control';

export const handler = createApiHandler(controlRoutes, { users, ...controlPorts() });
