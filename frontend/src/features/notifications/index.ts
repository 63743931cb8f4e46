export { NotificationBell } from './components/NotificationBell';
export { applyNotificationPush, notificationQueries } from './api/notificationQueries';
