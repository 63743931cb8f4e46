import { createApiHandler } from '../http/api-handler';
import { notificationsRoutes } from '../routes/notifications.routes';
import { users } from './wiring/core';

export const handler = createApiHandler(notificationsRoutes, { users });
