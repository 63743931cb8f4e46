import {
  type InfiniteData,
  infiniteQueryOptions,
  queryOptions,
  type QueryClient,
} from '@tanstack/react-query';
import {
  NOTIFICATION_PAGE_SIZE,
  type NotificationClearedPush,
  type NotificationPage,
  type NotificationPush,
  type NotificationRaisedPush,
  type NotificationView,
} from '@argentum/contracts';
import { callApi } from '../../../shared/api/client';
import { LIVE_REREAD_MS } from '../../../shared/realtime/liveReread';
import { getSession } from '../../../shared/session/sessionStore';

/** The caller's id, sent where the specification's calls name `userID` (the server checks it is the caller's). */
function userID(): { userID?: string } {
  const session = getSession();
  return session.status === 'signedIn' ? { userID: session.user.id } : {};
}

/**
 * The alarms this page was told are resolved (pushed clearings), by id, the newest kept: a list read
 * that was under way when the clearing was pushed may answer the alarm unresolved, and would undo the
 * push where it is shown. Each answer shows them resolved.
 */
const clearings = new Map<string, string>();
const CLEARINGS_KEPT = 500;

function rememberClearing(id: string, clearedAt: string): void {
  clearings.delete(id);
  clearings.set(id, clearedAt);
  const oldest = clearings.keys().next();
  if (clearings.size > CLEARINGS_KEPT && !oldest.done) clearings.delete(oldest.value);
}

/**
 * The raises this page was pushed and counted in its badge, the newest kept: the platform pushes a
 * notification again when its trigger is redelivered, and a page that does not hold it in a loaded
 * list would count it again (until the count is read again).
 */
const counted = new Set<string>();
const COUNTED_KEPT = 500;

function rememberCounted(id: string): void {
  counted.add(id);
  const oldest = counted.values().next();
  if (counted.size > COUNTED_KEPT && !oldest.done) counted.delete(oldest.value);
}

const withClearings = (page: NotificationPage): NotificationPage =>
  clearings.size === 0
    ? page
    : {
        ...page,
        list: page.list.map((n) => {
          const clearedAt = n.clearedAt === undefined ? clearings.get(n._id) : undefined;
          return clearedAt === undefined ? n : { ...n, clearedAt };
        }),
      };

// Fetch errors are ignored silently (specification): the silent option keeps them out of the toasts.
const fetchPage = async (skip: number, unreadOnly: boolean, signal: AbortSignal) =>
  withClearings(
    await callApi(
      'getNotifications',
      { skip, limit: NOTIFICATION_PAGE_SIZE, ...(unreadOnly ? { readStatus: false } : {}) },
      { signal, silent: true },
    ),
  );

/** The only place the notifications' query keys are written. */
export const notificationQueries = {
  all: () => ['notifications'] as const,
  list: (unreadOnly: boolean) =>
    infiniteQueryOptions({
      queryKey: [...notificationQueries.all(), 'list', { unreadOnly }] as const,
      queryFn: ({ pageParam, signal }) => fetchPage(pageParam, unreadOnly, signal),
      initialPageParam: 0,
      // Offsets count what was loaded, so a notification pushed meanwhile does not shift the pages.
      getNextPageParam: (last, pages) =>
        last.hasMore ? pages.reduce((n, p) => n + p.list.length, 0) : undefined,
    }),
  unreadCount: () =>
    queryOptions({
      queryKey: [...notificationQueries.all(), 'unreadCount'] as const,
      queryFn: async ({ signal }) =>
        (await callApi('getUnreadNotificationCount', userID(), { signal, silent: true })).count,
      staleTime: 60_000,
      // A raise whose push was lost still reaches the badge.
      refetchInterval: LIVE_REREAD_MS,
    }),
};

export const markNotificationsRead = (ids: readonly string[]) =>
  callApi('setUnreadNotificationStatus', { unreadNotificationIds: [...ids] }, { silent: true });

export const deleteNotification = (notificationID: string) =>
  callApi('deleteNotification', { notificationID, ...userID() }, { silent: true });

/** What a push leaves to read again: the unread count, or the notifications and their count. */
type ReadAgain = 'nothing' | 'count' | 'all';
const READ_AGAIN_SCOPE: Record<ReadAgain, number> = { nothing: 0, count: 1, all: 2 };

/**
 * The pushes of a message on the organization's topic (contracts `NotificationMessage`: one, or a
 * burst sent together), in order: notifications raised, or alarms' notifications resolved. What they
 * leave to read again is read once for them all: a burst of 200 raises is one count read, not 200.
 */
export function applyNotificationPushes(queryClient: QueryClient, pushes: readonly NotificationPush[]): void {
  let readAgain: ReadAgain = 'nothing';
  for (const push of pushes) {
    const needs =
      push.kind === 'notificationCleared' ? applyClearing(queryClient, push) : applyRaised(queryClient, push);
    if (READ_AGAIN_SCOPE[needs] > READ_AGAIN_SCOPE[readAgain]) readAgain = needs;
  }
  if (readAgain === 'all') void queryClient.invalidateQueries({ queryKey: notificationQueries.all() });
  else if (readAgain === 'count')
    void queryClient.invalidateQueries({ queryKey: notificationQueries.unreadCount().queryKey });
}

/**
 * A notification raised: prepended to the loaded lists and the badge raised by one at once, then the
 * count read again: the platform pushes a notification again when its trigger is redelivered (so a
 * push lost the first time still arrives), and a browser that does not hold it in a loaded list (read,
 * deleted, or never loaded) cannot always tell a repeat from a new one. A push the browser holds in a
 * loaded list, or was pushed and counted before (a redelivery), changes nothing.
 */
function applyRaised(queryClient: QueryClient, push: NotificationRaisedPush): ReadAgain {
  // A raise pushed again after its clearing (a redelivered trigger) is shown resolved.
  const clearedAt = push.notification.clearedAt ?? clearings.get(push.notification._id);
  const view: NotificationView = {
    ...push.notification,
    read: false,
    ...(clearedAt !== undefined ? { clearedAt } : {}),
  };
  let known = false;
  for (const unreadOnly of [false, true]) {
    queryClient.setQueryData<InfiniteData<NotificationPage, number>>(
      notificationQueries.list(unreadOnly).queryKey,
      (data) => {
        if (!data) return data;
        if (data.pages.some((p) => p.list.some((n) => n._id === view._id))) {
          known = true;
          return data;
        }
        const [first, ...rest] = data.pages;
        return first ? { ...data, pages: [{ ...first, list: [view, ...first.list] }, ...rest] } : data;
      },
    );
  }
  if (known || counted.has(view._id)) return 'nothing';
  rememberCounted(view._id);
  queryClient.setQueryData<number>(notificationQueries.unreadCount().queryKey, (count) =>
    count === undefined ? count : count + 1,
  );
  return 'count';
}

/**
 * An alarm's notification resolved: where a loaded list holds it, it is shown resolved in place, as a
 * list read afterwards would show it; its read flag, and so the badge, stay as they are, and a repeat
 * (the same clearing pushed again) changes nothing. A clearing of a notification no loaded list holds
 * (it came before the raise, whose push was late or lost, or the list is not loaded) adds nothing: the
 * notifications and their count are read again. A list read under way answers it resolved too
 * (withClearings).
 */
function applyClearing(queryClient: QueryClient, push: NotificationClearedPush): ReadAgain {
  rememberClearing(push._id, push.clearedAt);
  let held = false;
  for (const unreadOnly of [false, true]) {
    queryClient.setQueryData<InfiniteData<NotificationPage, number>>(
      notificationQueries.list(unreadOnly).queryKey,
      (data) => {
        if (!data || !data.pages.some((p) => p.list.some((n) => n._id === push._id))) return data;
        held = true;
        const resolve = (n: NotificationView) =>
          n._id === push._id && n.clearedAt === undefined ? { ...n, clearedAt: push.clearedAt } : n;
        return { ...data, pages: data.pages.map((p) => ({ ...p, list: p.list.map(resolve) })) };
      },
    );
  }
  return held ? 'nothing' : 'all';
}
