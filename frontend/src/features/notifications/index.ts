export { NotificationBell } from './components/NotificationBell';
export { applyNotificationPushes, notificationQueries } from './api/notificationQueries';
