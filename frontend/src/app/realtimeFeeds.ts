import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { topics } from '@argentum/contracts/messaging';
import { memberOrgIds, type OrgRoles, REALTIME_MAX_ORGS } from '@argentum/contracts';
import {
  announceGroupingOutcome,
  applyCommandStatus,
  applyLiveUpdates,
  floorPlanQueries,
  type GroupingOutcome,
} from '../features/floor-plan';
import { applyNotificationPushes, notificationQueries } from '../features/notifications';
import { realtimeChannel } from '../shared/realtime/channel';
import type { RealtimeEvent } from '../shared/realtime/realtimeEvents';

/**
 * The organizations whose command outcomes and notifications the page watches: the open floor's
 * first, then the user's others, at most REALTIME_MAX_ORGS (one connection's scope).
 */
export function watchedOrgIds(orgIds: readonly string[], floorOrgId: string | undefined): string[] {
  const ordered =
    floorOrgId && orgIds.includes(floorOrgId)
      ? [floorOrgId, ...orgIds.filter((orgId) => orgId !== floorOrgId)]
      : [...orgIds];
  return ordered.slice(0, REALTIME_MAX_ORGS);
}

/**
 * The organization topics the page subscribes to (besides the open floor's live topic): in each watched
 * organization, the outcomes of the user's own commands and the notifications. Never devices' own
 * words (`controldata/...`): one misbehaving device's stream would use up every page's 100 messages a
 * second; the platform pushes what a page needs of them (a grouping failure: on the device's floor's
 * live topic). The connection's policy grants nothing else (functions/src/domain/realtime/policy.ts).
 */
export function watchedOrgTopics(
  orgIds: readonly string[],
  floorOrgId: string | undefined,
  userId: string,
): string[] {
  return watchedOrgIds(orgIds, floorOrgId).flatMap((orgId) => [
    topics.commandStatus(orgId, userId),
    topics.notification(orgId),
  ]);
}

/**
 * Where a message of the channel goes: a floor's live values into its cached devices (coalesced),
 * and each kind of grouping failure its devices told announced once per message in edit mode's words
 * (`announce`), then the floor read again; command outcomes to the panel waiting on them;
 * notifications to the bell.
 */
export function applyRealtimeEvent(
  queryClient: QueryClient,
  event: RealtimeEvent,
  announce: (outcome: GroupingOutcome) => void = announceGroupingOutcome,
): void {
  switch (event.kind) {
    case 'live': {
      applyLiveUpdates(queryClient, event.floorId, event.message.updates);
      const failures = event.message.groupingFailures ?? [];
      // A grouping's success is announced by its call's answer; a device's later failure is not.
      for (const kind of new Set(failures.map((failure) => failure.kind))) announce({ kind, ok: false });
      if (failures.length > 0) void queryClient.invalidateQueries({ queryKey: floorPlanQueries.all() });
      break;
    }
    case 'commandStatus':
      applyCommandStatus(queryClient, event.view);
      break;
    case 'notification':
      applyNotificationPushes(queryClient, event.pushes);
      break;
  }
}

/**
 * What the page read before its channel was subscribed has missed what was published meanwhile, and
 * presence and alarms are pushed only when they change: back after a break (a dropped network, a
 * sleeping laptop, a token's end, a new scope), and also on the page's first connection (its first
 * reads answer before the channel is up, seconds later on a slow or busy link: an alarm resolved in
 * between would stay open in the bell), the floors' devices and counts (not their plans) and the
 * notifications are read again (live values newer than an answer stay, deviceMerge.ts). Answers the
 * function that stops it.
 */
export function readAgainOnConnect(
  queryClient: QueryClient,
  channel: Pick<typeof realtimeChannel, 'status' | 'onStatus'>,
): () => void {
  return channel.onStatus(() => {
    if (channel.status !== 'connected') return;
    void queryClient.invalidateQueries({ predicate: floorPlanQueries.live() });
    void queryClient.invalidateQueries({ queryKey: notificationQueries.all() });
  });
}

/**
 * The real-time channel while a user is signed in, and where its messages go (applyRealtimeEvent).
 * Subscribes only to what the screen needs: the open floor's live topic (its values, and its devices'
 * grouping failures), and the user's command outcomes and the notifications of the open floor's
 * organization and then the user's others, at most REALTIME_MAX_ORGS (a connection's scope: IoT Core's
 * policy and subscription limits; an owner of more organizations sees the others' notifications when
 * the bell reads them).
 */
export function useRealtimeFeeds(
  user: { id: string; orgRoles: OrgRoles },
  floor: { orgId: string; floorId: string } | null,
) {
  const userId = user.id;
  const queryClient = useQueryClient();
  const orgKey = memberOrgIds(user.orgRoles).sort().join(',');

  // The channel admits members only: a user of no organization has nothing to receive.
  const member = orgKey !== '';
  useEffect(() => {
    if (!member) return;
    const stopListening = realtimeChannel.onMessage((event: RealtimeEvent) =>
      applyRealtimeEvent(queryClient, event),
    );
    const stopWatching = readAgainOnConnect(queryClient, realtimeChannel);
    realtimeChannel.start();
    return () => {
      stopListening();
      stopWatching();
      realtimeChannel.stop();
    };
  }, [queryClient, member]);

  const floorOrgId = floor?.orgId;
  const floorId = floor?.floorId;
  // The open floor's live topic first: the connection's organizations are taken in this order.
  useEffect(() => {
    if (!floorOrgId || !floorId) return;
    const release = realtimeChannel.subscribe(topics.floorLive(floorOrgId, floorId));
    // A floor shown again: its cached devices missed what was published while it was not watched.
    if (queryClient.getQueryData(floorPlanQueries.devicesKey(floorId)) !== undefined)
      void queryClient.invalidateQueries({ predicate: floorPlanQueries.live(floorId) });
    return release;
  }, [queryClient, floorOrgId, floorId]);

  useEffect(() => {
    const releases = watchedOrgTopics(orgKey.split(',').filter(Boolean), floorOrgId, userId).map((topic) =>
      realtimeChannel.subscribe(topic),
    );
    return () => releases.forEach((release) => release());
  }, [orgKey, floorOrgId, userId]);
}
