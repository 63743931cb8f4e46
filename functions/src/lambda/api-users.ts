import { createApiHandler } from '../http/api-handler';
import { usersRoutes } from '../routes/users.routes';
import { accountPorts } from './wiring/accounts';
import { files } from './wiring/files';

export const handler = createApiHandler(usersRoutes, { ...accountPorts(), files });
