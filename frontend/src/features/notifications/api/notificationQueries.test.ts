import { QueryClient } from '@tanstack/react-query';
import type { NotificationPush } from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import { applyNotificationPush, notificationQueries } from './notificationQueries';

const push = (id: string): NotificationPush =>
  ({
    kind: 'notification',
    notification: {
      _id: id,
      type: 2,
      message: 'Desk: Device Offline',
      createdAt: '2026-11-28T09:00:00.000Z',
    },
  }) as NotificationPush;

describe('a pushed notification and the unread badge', () => {
  it('raises the badge at once and reads the count again, since a repeat it does not hold looks new', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    queryClient.setQueryData(countKey, 2);
    applyNotificationPush(queryClient, push('n1'));
    expect(queryClient.getQueryData(countKey)).toBe(3);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(true);
  });

  it('changes nothing for a push it holds in a loaded list', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    queryClient.setQueryData(countKey, 1);
    queryClient.setQueryData(notificationQueries.list(false).queryKey, {
      pages: [{ list: [{ ...push('n1').notification, read: false }], hasMore: false }],
      pageParams: [0],
    });
    applyNotificationPush(queryClient, push('n1'));
    expect(queryClient.getQueryData(countKey)).toBe(1);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(false);
  });
});
