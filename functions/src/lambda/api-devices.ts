import { createApiHandler } from '../http/api-handler';
import { devicesRoutes } from '../routes/devices.routes';

export const handler = createApiHandler(devicesRoutes);
