import * as z from 'zod';
import { body, id, notAvailableYet } from '../http/schemas';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'notifications';
const route = routesFor<RoutePorts>();
const base = '/api/notification';

export const notificationsRoutes = [
  route({
    method: 'POST',
    path: `${base}/getNotifications`,
    domain,
    access: { minRole: 0 },
    summary: "A page of the user's notifications, newest first.",
    request: body({
      skip: z.number().int().min(0).max(100_000),
      limit: z.number().int().min(1).max(50),
      readStatus: z.boolean().optional(),
    }),
    handler: notAvailableYet('Notifications'),
  }),
  route({
    method: 'POST',
    path: `${base}/getUnreadNotificationCount`,
    domain,
    access: { minRole: 0 },
    summary: 'How many notifications the user has not read.',
    request: body({ userID: id.optional() }),
    handler: notAvailableYet('Notifications'),
  }),
  route({
    method: 'POST',
    path: `${base}/setUnreadNotificationStatus`,
    domain,
    access: { minRole: 0 },
    summary: 'Marks notifications as read.',
    request: body({ unreadNotificationIds: z.array(id).max(100) }),
    handler: notAvailableYet('Notifications'),
  }),
  route({
    method: 'POST',
    path: `${base}/deleteNotification`,
    domain,
    access: { minRole: 0 },
    summary: 'Deletes a notification for the user.',
    request: body({ notificationID: id, userID: id.optional() }),
    handler: notAvailableYet('Notifications'),
  }),
];
