export { NotificationBell } from './components/NotificationBell';
export { applyNotificationPush } from './api/notificationQueries';
