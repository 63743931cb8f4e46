import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { NotificationClearedPush, NotificationPage, NotificationRaisedPush } from '@argentum/contracts';
import { describe, expect, it, vi } from 'vitest';
import { callApi } from '../../../shared/api/client';
import { applyNotificationPushes, notificationQueries } from './notificationQueries';

vi.mock('../../../shared/api/client', () => ({ callApi: vi.fn() }));

const push = (id: string): NotificationRaisedPush =>
  ({
    kind: 'notification',
    notification: {
      _id: id,
      type: 2,
      message: 'Desk: Device Offline',
      createdAt: '2026-11-28T09:00:00.000Z',
    },
  }) as NotificationRaisedPush;

describe('a pushed notification and the unread badge', () => {
  it('raises the badge at once and reads the count again, since a repeat it does not hold looks new', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    queryClient.setQueryData(countKey, 2);
    applyNotificationPushes(queryClient, [push('n1')]);
    expect(queryClient.getQueryData(countKey)).toBe(3);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(true);
  });

  it('counts a push pushed again (a redelivered trigger) once, though no loaded list holds it', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    queryClient.setQueryData(countKey, 0);
    applyNotificationPushes(queryClient, [push('redelivered')]);
    queryClient.setQueryData(countKey, 1); // the count read again
    applyNotificationPushes(queryClient, [push('redelivered')]);
    expect(queryClient.getQueryData(countKey)).toBe(1);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(false);
  });

  it('changes nothing for a push it holds in a loaded list', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    queryClient.setQueryData(countKey, 1);
    queryClient.setQueryData(notificationQueries.list(false).queryKey, {
      pages: [{ list: [{ ...push('n1').notification, read: false }], hasMore: false }],
      pageParams: [0],
    });
    applyNotificationPushes(queryClient, [push('n1')]);
    expect(queryClient.getQueryData(countKey)).toBe(1);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(false);
  });
});

describe('a pushed clearing (an alarm resolved)', () => {
  const clearing = (id: string, clearedAt = '2026-11-28T09:20:00.000Z'): NotificationClearedPush => ({
    kind: 'notificationCleared',
    _id: id,
    orgID: 'org-1',
    clearedAt,
  });
  const listed = (read: boolean, ...ids: string[]) => ({
    pages: [{ list: ids.map((id) => ({ ...push(id).notification, read })), hasMore: false }],
    pageParams: [0],
  });
  const listOf = (queryClient: QueryClient, unreadOnly: boolean) =>
    queryClient
      .getQueryData<{ pages: NotificationPage[] }>(notificationQueries.list(unreadOnly).queryKey)
      ?.pages.flatMap((p) => p.list);

  it('shows the held notification resolved in place, in every loaded list, leaving its read flag and the badge', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    queryClient.setQueryData(countKey, 1);
    queryClient.setQueryData(notificationQueries.list(false).queryKey, listed(false, 'n2', 'n1'));
    queryClient.setQueryData(notificationQueries.list(true).queryKey, listed(false, 'n2', 'n1'));
    applyNotificationPushes(queryClient, [clearing('n1')]);
    for (const unreadOnly of [false, true])
      expect(listOf(queryClient, unreadOnly)?.map((n) => [n._id, n.read, n.clearedAt])).toEqual([
        ['n2', false, undefined],
        ['n1', false, '2026-11-28T09:20:00.000Z'],
      ]);
    expect(queryClient.getQueryData(countKey)).toBe(1);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(false);
    expect(queryClient.getQueryState(notificationQueries.list(false).queryKey)?.isInvalidated).toBe(false);
  });

  it('changes nothing when pushed again, and a late raise of it adds nothing', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    queryClient.setQueryData(countKey, 0);
    queryClient.setQueryData(notificationQueries.list(false).queryKey, listed(true, 'n1'));
    applyNotificationPushes(queryClient, [clearing('n1')]);
    applyNotificationPushes(queryClient, [clearing('n1', '2026-11-28T10:00:00.000Z')]);
    applyNotificationPushes(queryClient, [push('n1')]);
    expect(listOf(queryClient, false)?.map((n) => [n._id, n.read, n.clearedAt])).toEqual([
      ['n1', true, '2026-11-28T09:20:00.000Z'],
    ]);
    expect(queryClient.getQueryData(countKey)).toBe(0);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(false);
  });

  it('adds no entry for a notification the page does not hold: the notifications are read again', () => {
    const queryClient = new QueryClient();
    const countKey = notificationQueries.unreadCount().queryKey;
    const listKey = notificationQueries.list(false).queryKey;
    queryClient.setQueryData(countKey, 1);
    queryClient.setQueryData(listKey, listed(false, 'n2'));
    applyNotificationPushes(queryClient, [clearing('n1')]);
    expect(listOf(queryClient, false)?.map((n) => n._id)).toEqual(['n2']);
    expect(queryClient.getQueryData(countKey)).toBe(1);
    expect(queryClient.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(countKey)?.isInvalidated).toBe(true);
  });

  it('shows it resolved in the answer of a list read under way when it was pushed', async () => {
    const queryClient = new QueryClient();
    const listKey = notificationQueries.list(false).queryKey;
    // The read began before the alarm was resolved: its answer has it unresolved.
    const { promise: answered, resolve: answer } = Promise.withResolvers<NotificationPage>();
    vi.mocked(callApi).mockReturnValueOnce(answered as ReturnType<typeof callApi>);
    const reading = queryClient.fetchInfiniteQuery(notificationQueries.list(false));
    applyNotificationPushes(queryClient, [clearing('n7')]);
    answer(listed(false, 'n8', 'n7').pages[0] as NotificationPage);
    await reading;
    expect(listOf(queryClient, false)?.map((n) => [n._id, n.clearedAt])).toEqual([
      ['n8', undefined],
      ['n7', '2026-11-28T09:20:00.000Z'],
    ]);
    expect(queryClient.getQueryState(listKey)?.status).toBe('success');
  });

  it('shows a raise pushed again after its clearing resolved, where the page did not hold it', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(notificationQueries.list(false).queryKey, listed(false, 'n2'));
    applyNotificationPushes(queryClient, [clearing('n9')]);
    applyNotificationPushes(queryClient, [push('n9')]);
    expect(listOf(queryClient, false)?.map((n) => [n._id, n.clearedAt])).toEqual([
      ['n9', '2026-11-28T09:20:00.000Z'],
      ['n2', undefined],
    ]);
  });
});

describe('a burst of pushes sent together', () => {
  it('applies each in order and reads the count again once for them all', async () => {
    const queryClient = new QueryClient();
    const count = vi.mocked(callApi).mockResolvedValue({ count: 0 });
    const observer = new QueryObserver(queryClient, notificationQueries.unreadCount());
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(0));
    count.mockClear();
    count.mockResolvedValue({ count: 3 });
    applyNotificationPushes(queryClient, [push('b1'), push('b2'), push('b3')]);
    // Counted at once, one by one...
    expect(queryClient.getQueryData(notificationQueries.unreadCount().queryKey)).toBe(3);
    // ... and read again once.
    await vi.waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false));
    expect(count.mock.calls.filter(([call]) => call === 'getUnreadNotificationCount')).toHaveLength(1);
    stop();
  });
});
