import { createApiHandler } from '../http/api-handler';
import { treeRoutes } from '../routes/tree.routes';

export const handler = createApiHandler(treeRoutes);
