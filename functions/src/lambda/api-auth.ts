import { createApiHandler } from '../http/api-handler';
import { authRoutes } from '../routes/auth.routes';
import { accountPorts } from './ports';

export const handler = createApiHandler(authRoutes, accountPorts());
