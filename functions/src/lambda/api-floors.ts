import { createApiHandler } from '../http/api-handler';
import { floorsRoutes } from '../routes/floors.routes';
import { clock, tree, users } from './ports';

export const handler = createApiHandler(floorsRoutes, { users, tree, clock });
