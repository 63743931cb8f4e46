import { createApiHandler } from '../http/api-handler';
import { floorsRoutes } from '../routes/floors.routes';

export const handler = createApiHandler(floorsRoutes);
