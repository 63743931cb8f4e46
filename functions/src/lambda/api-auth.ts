import { createApiHandler } from '../http/api-handler';
import { authRoutes } from '../routes/auth.routes';

export const handler = createApiHandler(authRoutes);
