import { createApiHandler } from '../http/api-handler';
import { treeRoutes } from '../routes/tree.routes';
import { sweepPorts, users } from './ports';

export const handler = createApiHandler(treeRoutes, { ...sweepPorts(), users });
