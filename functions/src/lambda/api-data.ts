import { createApiHandler } from '../http/api-handler';
import { dataRoutes } from '../routes/data.routes';

export const handler = createApiHandler(dataRoutes);
