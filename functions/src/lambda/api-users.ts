import { createApiHandler } from '../http/api-handler';
import { usersRoutes } from '../routes/users.routes';
import { accountPorts, s3LogoStore } from './ports';

export const handler = createApiHandler(usersRoutes, { ...accountPorts(), logos: s3LogoStore });
