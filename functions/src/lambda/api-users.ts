import { createApiHandler } from '../http/api-handler';
import { usersRoutes } from '../routes/users.routes';

export const handler = createApiHandler(usersRoutes);
