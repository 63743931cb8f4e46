import { createApiHandler } from '../http/api-handler';
import { devicesRoutes } from '../routes/devices.routes';
import { users } from './ports';

export const handler = createApiHandler(devicesRoutes, { users });
