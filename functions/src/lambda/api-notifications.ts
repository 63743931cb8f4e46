import { createApiHandler } from '../http/api-handler';
import { notificationsRoutes } from '../routes/notifications.routes';

export const handler = createApiHandler(notificationsRoutes);
