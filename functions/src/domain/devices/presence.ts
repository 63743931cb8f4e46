import {
  DEFAULT_ALARM_SETTINGS,
  DEVICE_OFFLINE_TEXT,
  DEVICE_ONLINE_TEXT,
  type DevicePresence,
  lastHeardAt,
  type OrganizationAlarmSettings,
  type PresenceReason,
  readingHeardAt,
} from '@argentum/contracts';
import { conflictBackOff, pauseBefore } from '../../lib/backoff';
import { mapLimited } from '../../lib/concurrency';
import type { Logger } from '../ports';
import type { Device } from './device';

/**
 * How often each device type reports (ms). A device is silent once its last word is more than
 * OFFLINE_AFTER_INTERVALS of its intervals old: one or two lost messages do not mark it offline.
 * Sensors report every 5 minutes; BACnet points and air flow every minute; gateways send a heartbeat
 * every minute; power nodes, contactors and switches report their state every 10 minutes.
 */
export const REPORT_INTERVAL_MS: Record<number, number> = {
  0: 60_000,
  1: 600_000,
  2: 300_000,
  3: 600_000,
  4: 300_000,
  5: 300_000,
  6: 600_000,
  7: 60_000,
  8: 300_000,
  9: 60_000,
};
export const OFFLINE_AFTER_INTERVALS = 3;

/**
 * Presence: whether a device is online, decided on the server from the device's own word and its
 * silence, stored with the device and pushed to browsers on every change.
 *
 * - An announcement (cmnd 1 on `controldata/success|fail`), a reading and a reply move it online or
 *   offline; so does silence: no word for OFFLINE_AFTER_INTERVALS report intervals (the sweep).
 * - Every change is decided by the event's own time: an event older than the stored decision (a
 *   redelivery, a message that overtook another) changes nothing, so presence never moves backwards.
 * - Offline episodes (the alarm): an episode opens when the device goes offline; spells back online
 *   shorter than the organization's grace period do not end it (flapping is one episode). Its 'Device
 *   Offline' notification is raised once the episode has lasted the grace period with the device
 *   offline; it ends when the device has been online for the grace period, or at once when the device
 *   announces itself online, which (if the episode was notified) raises 'Device Online'.
 */

/** An open offline episode. */
export interface OfflineEpisode {
  /** When the device first went offline in this episode (ms). */
  since: number;
  /** The 'Device Offline' notification, once raised. */
  notificationId?: string;
  /** While back online within the episode: since when. */
  onlineSince?: number;
}

/** What is stored with the device. */
export interface StoredPresence extends DevicePresence {
  episode?: OfflineEpisode;
  /** Raised by every write: writes are conditioned on the revision read. */
  rev: number;
}

/** What moved a device: its word (an announcement, a reading, a reply) or the sweep's clock. */
export type PresenceEvent =
  | { kind: 'announced'; online: boolean; at: number }
  | { kind: 'reading'; at: number }
  | { kind: 'reply'; at: number }
  /** The sweep's tick: silence past the report interval, and the episodes' grace periods. */
  | { kind: 'tick'; at: number };

/** What the use case needs of a device. */
export type PresenceDevice = Pick<
  Device,
  'devID' | 'devName' | 'devType' | 'orgID' | 'onFloor' | 'floorID' | 'buildID' | 'lastSeen' | 'clockOffset'
> & { presence?: StoredPresence };

/** The longest a device may stay silent before it is offline. */
export function silenceLimitMs(devType: number): number {
  return OFFLINE_AFTER_INTERVALS * (REPORT_INTERVAL_MS[devType] ?? 300_000);
}

/**
 * A device's presence as every answer shows it: the stored decision; a device that has none yet (it
 * has said nothing since presence was introduced) is online while its newest reading is within the
 * silence limit, which is what the sweep would decide.
 */
export function presenceOf(
  device: Pick<PresenceDevice, 'devType' | 'lastSeen' | 'clockOffset' | 'presence'>,
  now: number,
): DevicePresence {
  const stored = device.presence;
  if (stored) {
    return {
      online: stored.online,
      reason: stored.reason,
      since: stored.since,
      at: stored.at,
      ...(stored.lastSeen !== undefined ? { lastSeen: stored.lastSeen } : {}),
    };
  }
  const heard = readingHeardAt(device);
  if (heard === undefined) return { online: false, reason: 'never-seen', since: 0, at: 0 };
  const online = now - heard <= silenceLimitMs(device.devType);
  return {
    online,
    reason: online ? 'reading' : 'silent',
    since: online ? heard : heard + silenceLimitMs(device.devType),
    at: heard,
    lastSeen: heard,
  };
}

/** What a decision asks for besides storing the next presence. */
export interface PresenceEffects {
  /** The state changed: push it to browsers. */
  changed: boolean;
  /** Raise the episode's 'Device Offline' notification. */
  raiseOffline?: { episodeSince: number };
  /**
   * The episode ended at `endedAt` (when the device came back for good): its notification (if any) is
   * cleared and 'Device Online' raised, both as of that time.
   */
  closeEpisode?: EpisodeClose;
}

/** An episode that ended, and when. */
export interface EpisodeClose {
  episodeSince: number;
  notificationId?: string;
  endedAt: number;
}

/** A 'Device Offline' notification raised by an attempt whose write was lost (a race). */
export interface RaisedAlarm {
  episodeSince: number;
  notificationId: string;
}

const reasonOf = (event: PresenceEvent, online: boolean): PresenceReason => {
  if (event.kind === 'announced') return online ? 'announced-online' : 'announced-offline';
  if (event.kind === 'tick') return 'silent';
  return event.kind;
};

/**
 * The pure decision: the next stored presence (undefined: nothing to write) and its effects.
 * `alarmsWanted`: whether this device's offline episodes notify (unplaced devices only on opt-in).
 * `raised`: the notification an earlier attempt raised but could not record (its write was lost): if
 * its episode is still the open one, it is recorded now, and the episode closes with it as usual.
 */
export function decidePresence(
  device: PresenceDevice,
  event: PresenceEvent,
  settings: OrganizationAlarmSettings,
  alarmsWanted: boolean,
  now: number,
  raised?: RaisedAlarm,
): { next: StoredPresence | undefined; effects: PresenceEffects } {
  let stored = device.presence;
  let write = false;
  if (raised && stored?.episode?.since === raised.episodeSince && !stored.episode.notificationId) {
    stored = { ...stored, episode: { ...stored.episode, notificationId: raised.notificationId } };
    write = true;
  }
  const current = presenceOf(device, now);
  let next: StoredPresence = {
    ...current,
    ...(stored?.episode ? { episode: { ...stored.episode } } : {}),
    rev: (stored?.rev ?? 0) + 1,
  };
  const effects: PresenceEffects = { changed: false };
  const at = event.at;

  const goOnline = () => {
    next = { ...next, online: true, reason: reasonOf(event, true), since: at, at, lastSeen: at };
    if (next.episode && next.episode.onlineSince === undefined)
      next.episode = { ...next.episode, onlineSince: at };
    effects.changed = true;
    write = true;
  };
  const goOffline = (reason: PresenceReason) => {
    next = { ...next, online: false, reason, since: at, at };
    next.episode = next.episode
      ? { since: next.episode.since, ...(next.episode.notificationId ? { notificationId: next.episode.notificationId } : {}) }
      : { since: at };
    effects.changed = true;
    write = true;
  };

  // Only words newer than the stored decision move the device (never backwards).
  const newer = stored === undefined || at > stored.at;
  switch (event.kind) {
    case 'announced':
      if (newer && event.online && !current.online) goOnline();
      // Offline: also for a device with no record yet (never heard, it says so itself: an episode opens).
      else if (newer && !event.online && (current.online || !stored) && (readingHeardAt(device) ?? 0) < at)
        goOffline('announced-offline');
      break;
    case 'reading':
    case 'reply':
      // A reading older than the silence limit (late, replayed) says nothing about now.
      // A device without a record yet gets one (so the sweep watches it), even if derived online.
      if (newer && (!current.online || !stored) && now - at <= silenceLimitMs(device.devType)) goOnline();
      break;
    case 'tick': {
      const heard = lastHeardAt(device);
      const silentSince = (heard ?? 0) + silenceLimitMs(device.devType);
      if (current.online && (stored === undefined || at > stored.at) && at > silentSince) goOffline('silent');
      break;
    }
  }
  // No record yet and nothing changed: nothing to store (the derived presence says the same).
  if (!stored && !write) return { next: undefined, effects };

  // The episode's grace periods, at the event's time (the sweep's tick at its clock).
  const graceMs = settings.offlineGraceMinutes * 60_000;
  const episode = next.episode;
  const clock = Math.max(at, event.kind === 'tick' ? now : at);
  if (episode) {
    if (next.online && event.kind === 'announced' && event.online && episode.notificationId) {
      effects.closeEpisode = { episodeSince: episode.since, notificationId: episode.notificationId, endedAt: at };
      delete next.episode;
      write = true;
    } else if (next.online && episode.onlineSince !== undefined && clock - episode.onlineSince >= graceMs) {
      // Online for the grace period: the episode ended when the device came back.
      effects.closeEpisode = {
        episodeSince: episode.since,
        ...(episode.notificationId ? { notificationId: episode.notificationId } : {}),
        endedAt: episode.onlineSince,
      };
      delete next.episode;
      write = true;
    } else if (!next.online && !episode.notificationId && alarmsWanted && clock - episode.since >= graceMs) {
      effects.raiseOffline = { episodeSince: episode.since };
    }
  }
  return { next: write || effects.raiseOffline ? next : undefined, effects };
}

/**
 * When the episode of a notification raised by a lost write ended, seen from the device as it is now
 * (that episode is no longer its open one): when it came back online (its online spell began then; an
 * episode ends only after its device has been back for the grace period, or on its online word), or,
 * if it has since gone offline again in a new episode, no later than that.
 */
export function endOfEndedEpisode(device: Pick<PresenceDevice, 'presence'>, fallback: number): number {
  const stored = device.presence;
  if (!stored) return fallback;
  return stored.online ? stored.since : (stored.episode?.since ?? stored.since);
}

/** Where presence is stored: with the device item (stores/presence.ts). */
export interface PresenceStore {
  /** The device with its stored presence, read consistently. */
  get(devId: string): Promise<PresenceDevice | undefined>;
  /**
   * Stores `next` if the stored presence is still `read` (its revision; none stored when undefined)
   * and the device's newest reading is still `lastSeen`. Keeps the device on the sweep's watch list
   * while it is online or has an open episode.
   */
  saveIfUnchanged(
    devId: string,
    next: StoredPresence,
    read: { rev: number | undefined; lastSeen: number | undefined },
  ): Promise<'saved' | 'changed-meanwhile'>;
  /**
   * The devices the sweep looks at: online, or with an open offline episode. Read eventually
   * consistently: an image may be a second old (`saveIfUnchanged` refuses a decision made on it).
   */
  watched(): Promise<PresenceDevice[]>;
  /** Takes a device off the sweep's watch list (offline with no open episode, or gone). */
  unwatch(devId: string): Promise<void>;
}

/** A presence change as browsers get it (the live floor message). */
export interface PresencePush {
  orgId: string;
  floorId: string;
  devId: string;
  presence: DevicePresence;
}

/** What the presence use cases need. */
export interface PresencePorts {
  presence: PresenceStore;
  /** The organization's alarm settings (defaults when it set none). */
  alarmSettings(orgId: string): Promise<OrganizationAlarmSettings>;
  /** Pushes changes to the browsers that have the devices' floors open (one message per floor). */
  push(changes: readonly PresencePush[]): Promise<void>;
  /** Offline episodes' notifications (domain/notifications/alarms.ts). */
  episodes: {
    raiseOffline(device: PresenceDevice, episodeSince: number, time: number): Promise<string>;
    /** Clears the episode's notification and raises 'Device Online', as of `time` (its end). */
    close(
      device: PresenceDevice,
      episode: { episodeSince: number; notificationId?: string },
      time: number,
    ): Promise<void>;
  };
  logger: Logger;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Closes an ended episode (best effort: the presence is stored already). */
async function closeEpisode(deps: PresencePorts, device: PresenceDevice, close: EpisodeClose): Promise<void> {
  try {
    const { endedAt, ...episode } = close;
    await deps.episodes.close(device, episode, endedAt);
  } catch (error) {
    deps.logger.log('warn', 'presence: the offline episode could not be closed', {
      devId: device.devID,
      error: errorText(error),
    });
  }
}

/** Best effort: a browser that misses a change reads the floor again on its next load. */
async function pushChanges(deps: PresencePorts, changes: readonly PresencePush[]): Promise<void> {
  if (changes.length === 0) return;
  try {
    await deps.push(changes);
  } catch (error) {
    deps.logger.log('warn', 'presence: changes could not be pushed', {
      devIds: changes.map((c) => c.devId).slice(0, 20),
      error: errorText(error),
    });
  }
}

/**
 * Applies one event to one device: decides, stores (conditioned on what was read; retried when the
 * device changed meanwhile), then pushes the change and raises or closes the offline episode.
 * Answers the presence after it (undefined: unknown device).
 */
export async function observePresence(
  deps: PresencePorts,
  devId: string,
  event: PresenceEvent,
  now: number,
  known?: PresenceDevice,
  /** Collects the change to push instead of pushing it (the caller pushes a batch's changes at once). */
  pushes?: PresencePush[],
): Promise<DevicePresence | undefined> {
  let device = known;
  // Raised by an attempt whose write was lost: the retry records it, or closes it if its episode ended.
  let raised: RaisedAlarm | undefined;
  // A write that lost (the device's readings or another decision meanwhile) reads again, after a pause.
  for (let attempt = 1; attempt <= conflictBackOff.attempts; attempt++) {
    if (attempt > 1) await pauseBefore(attempt - 1);
    if (!device || attempt > 1) device = await deps.presence.get(devId);
    if (!device) return undefined;
    if (raised && device.presence?.episode?.since !== raised.episodeSince) {
      // Its episode ended meanwhile (the device came back): it closes as the episode would have.
      await closeEpisode(deps, device, { ...raised, endedAt: endOfEndedEpisode(device, event.at) });
      raised = undefined;
    }
    const settings = await deps.alarmSettings(device.orgID);
    const alarmsWanted = device.onFloor || settings.alarmUnplacedDevices;
    const { next, effects } = decidePresence(device, event, settings, alarmsWanted, now, raised);
    if (!next) return presenceOf(device, now);
    if (effects.raiseOffline && next.episode) {
      // Raised before the write: a lost race meets the same episode id and delivers nothing new.
      const notificationId = await deps.episodes.raiseOffline(
        device,
        effects.raiseOffline.episodeSince,
        Math.max(event.at, now),
      );
      next.episode.notificationId = notificationId;
      raised = { episodeSince: effects.raiseOffline.episodeSince, notificationId };
    }
    const saved = await deps.presence.saveIfUnchanged(devId, next, {
      rev: device.presence?.rev,
      lastSeen: device.lastSeen,
    });
    if (saved === 'changed-meanwhile') continue;
    const { episode: _episode, rev: _rev, ...presence } = next;
    if (effects.closeEpisode) await closeEpisode(deps, device, effects.closeEpisode);
    if (effects.changed && device.onFloor && device.floorID) {
      const change = { orgId: device.orgID, floorId: device.floorID, devId, presence };
      if (pushes) pushes.push(change);
      else await pushChanges(deps, [change]);
    }
    return presence;
  }
  deps.logger.log('warn', 'presence kept changing; the event is left to the next one', { devId });
  return undefined;
}

/** How many devices a batch of readings, or the sweep, decides at once. */
const DEVICES_AT_ONCE = 16;

/** Readings stored by ingest: each device's newest moves it online if it was not. */
export async function observeReadingsPresence(
  deps: PresencePorts,
  newest: readonly { devId: string; time: number }[],
  now: number,
): Promise<void> {
  const pushes: PresencePush[] = [];
  await mapLimited(newest, DEVICES_AT_ONCE, async (reading) => {
    try {
      await observePresence(deps, reading.devId, { kind: 'reading', at: reading.time }, now, undefined, pushes);
    } catch (error) {
      // Best effort: the reading is stored, and the next one or the sweep decides again.
      deps.logger.log('warn', 'presence: a reading was not applied', {
        devId: reading.devId,
        error: errorText(error),
      });
    }
  });
  await pushChanges(deps, pushes);
}

/**
 * The sweep (every minute: an EventBridge schedule in AWS, a timer locally): every watched device is
 * decided at `now`: silence past its limit turns it offline, and episodes raise or close when their
 * grace period is over. Devices that need no more watching leave the list.
 */
export async function sweepPresence(deps: PresencePorts, now: number): Promise<{ looked: number; changed: number }> {
  const watched = await deps.presence.watched();
  const pushes: PresencePush[] = [];
  let changed = 0;
  // Devices are decided apart (each write is conditioned on its own device), several at once: a
  // building that went dark raises its offline episodes together, and their pushes leave together.
  await mapLimited(watched, DEVICES_AT_ONCE, async (device) => {
    try {
      let image = device;
      // Offline with no open episode: nothing left to decide until the device speaks again. The
      // watched image may be a second old, and taking a device off the list is not conditional: it is
      // confirmed on a consistent read (a device that came back meanwhile stays watched).
      if (image.presence && !image.presence.online && !image.presence.episode) {
        const current = await deps.presence.get(device.devID);
        if (!current?.presence?.online && !current?.presence?.episode) {
          await deps.presence.unwatch(device.devID);
          return;
        }
        image = current;
      }
      const before = image.presence;
      const after = await observePresence(deps, device.devID, { kind: 'tick', at: now }, now, image, pushes);
      if (!after) await deps.presence.unwatch(device.devID);
      else if (before && after.online !== before.online) changed++;
    } catch (error) {
      deps.logger.log('warn', 'presence sweep: a device was not decided', {
        devId: device.devID,
        error: errorText(error),
      });
    }
  });
  await pushChanges(deps, pushes);
  return { looked: watched.length, changed };
}

/** The texts of the episode's notifications. */
export const offlineEpisodeTexts = { offline: DEVICE_OFFLINE_TEXT, online: DEVICE_ONLINE_TEXT };

export { DEFAULT_ALARM_SETTINGS };
