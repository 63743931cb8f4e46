import { createApiHandler } from '../http/api-handler';
import { devicesRoutes } from '../routes/devices.routes';
import { users } from './wiring/core';

export const handler = createApiHandler(devicesRoutes, { users });
