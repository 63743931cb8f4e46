import { createApiHandler } from '../http/api-handler';
import { usersRoutes } from '../routes/users.routes';
import { accountPorts, files } from './ports';

export const handler = createApiHandler(usersRoutes, { ...accountPorts(), files });
