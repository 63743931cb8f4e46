import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  NO_NOTIFICATIONS_TEXT,
  NOTIFICATION_RELOAD_BELOW,
  type NotificationView,
  ONLY_SHOW_UNREAD_TEXT,
  VIEW_DEVICE_TEXT,
} from '@argentum/contracts';
import { formatDateTime } from '../../../shared/format/date';
import { BellIcon, TrashIcon } from '../../../shared/ui/icons';
import { deleteNotification, markNotificationsRead, notificationQueries } from '../api/notificationQueries';
import { NotificationMessage } from './NotificationMessage';
import styles from './NotificationBell.module.css';

const TYPE_LABEL = ['Info', 'Warning', 'Error'] as const;

interface NotificationBellProps {
  /** 'View Device': the app highlights the device (opening its floor first when another is open). */
  onViewDevice: (target: { orgID: string; floorID: string; devID: string }) => void;
}

/** The top bar's bell: unread badge, and the popover of the user's notifications. */
export function NotificationBell({ onViewDevice }: NotificationBellProps) {
  const [open, setOpen] = useState(false);
  const count = useQuery(notificationQueries.unreadCount()).data ?? 0;
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);

  return (
    <div className={styles.anchor}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.bell}
        aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <BellIcon size={20} />
        {count > 0 && (
          <span className={styles.badge} aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {open && <NotificationPopover id={panelId} onClose={close} onViewDevice={onViewDevice} />}
    </div>
  );
}

function NotificationPopover({
  id,
  onClose,
  onViewDevice,
}: {
  id: string;
  onClose: () => void;
  onViewDevice: NotificationBellProps['onViewDevice'];
}) {
  const queryClient = useQueryClient();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useInfiniteQuery(notificationQueries.list(unreadOnly));
  const panelRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLLIElement>(null);
  const items = list.data?.pages.flatMap((p) => p.list) ?? [];
  // What this opening loaded unread: marked read when the popover closes.
  const seenUnread = useRef(new Set<string>());
  const loaded = list.data;
  useEffect(() => {
    for (const page of loaded?.pages ?? [])
      for (const n of page.list) if (!n.read) seenUnread.current.add(n._id);
  }, [loaded]);

  // Each opening and each toggle starts again from offset 0.
  useEffect(() => {
    void queryClient.resetQueries({ queryKey: notificationQueries.list(unreadOnly).queryKey, exact: true });
  }, [queryClient, unreadOnly]);

  // On close: mark what was loaded as read and refresh the badge with the server's count.
  useEffect(() => {
    const seen = seenUnread.current;
    return () => {
      const ids = [...seen];
      if (ids.length === 0) return;
      void markNotificationsRead(ids)
        .then(({ count }) => queryClient.setQueryData(notificationQueries.unreadCount().queryKey, count))
        .catch(() => undefined)
        .finally(() => void queryClient.invalidateQueries({ queryKey: notificationQueries.all() }));
    };
  }, [queryClient]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    const onPointer = (event: PointerEvent) => {
      const anchor = panelRef.current?.parentElement;
      if (anchor && !anchor.contains(event.target as Node)) onClose();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [onClose]);

  // Infinite scroll: the next 10 when the end of the list comes into view.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, items.length]);

  const remove = async (notification: NotificationView) => {
    try {
      await deleteNotification(notification._id);
    } catch {
      return; // Errors of notification calls are ignored silently (specification).
    }
    seenUnread.current.delete(notification._id);
    const key = notificationQueries.list(unreadOnly).queryKey;
    queryClient.setQueryData(key, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((p) => ({ ...p, list: p.list.filter((n) => n._id !== notification._id) })),
          }
        : data,
    );
    if (items.length - 1 < NOTIFICATION_RELOAD_BELOW)
      void queryClient.resetQueries({ queryKey: key, exact: true });
    void queryClient.invalidateQueries({ queryKey: notificationQueries.unreadCount().queryKey });
  };

  return (
    <div ref={panelRef} id={id} className={styles.popover} role="dialog" aria-label="Notifications">
      <div className={styles.header}>
        <h2 className={styles.title}>Notifications</h2>
        <label className={styles.toggle}>
          <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} />
          {ONLY_SHOW_UNREAD_TEXT}
        </label>
      </div>
      <ul className={styles.list} aria-busy={list.isFetching}>
        {items.map((n) => (
          <li key={n._id} className={styles.item} data-type={n.type} data-read={n.read || undefined}>
            <span
              className={styles.dot}
              aria-label={n.read ? undefined : 'Unread'}
              role={n.read ? undefined : 'img'}
            />
            <div className={styles.body}>
              <p className={styles.message}>
                <span className={styles.type}>{TYPE_LABEL[n.type]}</span>{' '}
                <NotificationMessage html={n.message} />
              </p>
              <p className={styles.meta}>
                <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
                {n.clearedAt && <span> · resolved {formatDateTime(n.clearedAt)}</span>}
              </p>
              {n.properties.devID && n.properties.floorID && (
                <button
                  type="button"
                  className={styles.link}
                  onClick={() => {
                    const { orgID, floorID, devID } = n.properties;
                    if (floorID && devID) onViewDevice({ orgID, floorID, devID });
                    onClose();
                  }}
                >
                  {VIEW_DEVICE_TEXT}
                </button>
              )}
            </div>
            <button
              type="button"
              className={styles.delete}
              aria-label="Delete notification"
              title="Delete"
              onClick={() => void remove(n)}
            >
              <TrashIcon size={16} />
            </button>
          </li>
        ))}
        {list.isSuccess && items.length === 0 && <li className={styles.empty}>{NO_NOTIFICATIONS_TEXT}</li>}
        {list.isPending && <li className={styles.empty}>Loading…</li>}
        <li ref={sentinelRef} className={styles.sentinel} aria-hidden="true" />
      </ul>
    </div>
  );
}
