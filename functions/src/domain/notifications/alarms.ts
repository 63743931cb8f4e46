import {
  COMFORT_ALARM_AFTER_MINUTES,
  COMFORT_ZONES,
  DEVICE_OFFLINE_TEXT,
  DEVICE_ONLINE_TEXT,
  DeviceType,
  NotificationType,
  type NotificationTypeNumber,
} from '@argentum/contracts';
import type { AlarmMailJob, JobQueue } from '../auth/ports';
import type { Device } from '../devices/device';
import { conflictBackOff, pauseBefore } from '../../lib/backoff';
import { mapLimited } from '../../lib/concurrency';
import type { Logger, Metrics } from '../ports';
import { html } from './notification-html';
import { clearNotification, raiseNotification } from './notifications';
import type { NotificationPorts } from './ports';

/**
 * Alarms turn device conditions into notifications, evaluated as telemetry and device messages
 * arrive (never by scanning tables). A condition that lasts is one notification for its whole
 * episode; when it ends the notification is marked resolved (pushed to open pages, as the raise was),
 * and a later episode raises a new one.
 * Error alarms are also mailed to the organization's admins, once per episode.
 */

/** A reading must stay outside its comfort zone this long before it raises an alarm. */
export const COMFORT_ALARM_AFTER_MS = COMFORT_ALARM_AFTER_MINUTES * 60_000;

/** Device types whose readings are not checked against comfort zones (specification section 5). */
const UNCHECKED_TYPES = new Set([2, 7, 8, 9]);

/** One open episode of a condition of a device. */
export interface OpenCondition {
  /** When the condition was first observed in this episode (ms). */
  since: number;
  /** The notification raised for the episode, once it has lasted long enough. */
  notificationId?: string;
  /**
   * For a condition that matters only while people are there (`whenInUse`): since when its floor has
   * been seen in use, without a break, in this episode.
   */
  inUseSince?: number;
  /**
   * The newest observation of the episode before it is raised, kept to within LAST_AT_REFRESH_MS (so
   * an open condition is not written at every reading): a silence longer than its time to raise
   * breaks the episode.
   */
  lastAt?: number;
}

/** How stale an unraised episode's `lastAt` may be before a reading writes it again. */
const LAST_AT_REFRESH_MS = 5 * 60_000;

/**
 * The alarm state of one device: its open conditions, the time of the newest observation, and when
 * each kind of repeating event (a pairing failure) last raised a notification.
 */
export interface DeviceAlarms {
  devId: string;
  conditions: Record<string, OpenCondition>;
  observedAt: number;
  /** Repeating event kind -> the time (ms) of the event whose notification was raised last. */
  events?: Record<string, number>;
  /**
   * Notifications of episodes this state ended, not yet marked resolved -> the time each ended (ms).
   * An episode's end is saved first and delivered after (`settleClearing`), by whoever reads the
   * state next if the instance that saved it stops: never resolved by a write that then loses.
   */
  clearing?: Record<string, number>;
  version: number;
}

/** Where alarm state lives (the DynamoDB adapter is stores/alarms.ts). */
export interface AlarmStore {
  get(devId: string): Promise<DeviceAlarms | undefined>;
  /** The stored states of these devices (read as `get` reads one), by device; absent ones left out. */
  getMany(devIds: readonly string[]): Promise<Map<string, DeviceAlarms>>;
  /** Writes `next` if the stored state is still `read` (absent when `read` is undefined). */
  saveIfUnchanged(next: DeviceAlarms, read: DeviceAlarms | undefined): Promise<'saved' | 'changed-meanwhile'>;
}

export interface AlarmPorts extends NotificationPorts {
  alarms: AlarmStore;
  /** Error alarms' mail goes through the mail queue (the mailer sends it once per notification). */
  alarmMail: JobQueue<AlarmMailJob>;
  logger: Logger;
  /** Alarm episodes (namespace Argentum/Alarms): Raised, Cleared. */
  metrics: Metrics;
}

/** The device an observation is about, as the notification names it. */
export interface AlarmDevice {
  devId: string;
  orgId: string;
  devName: string;
  devType: number;
  floorId?: string;
  buildId?: string;
  /** The alarm episodes its readings opened, as its device item counts them (Device `alarmsOpened`). */
  alarmsOpened?: number;
}

/** A registered device as alarms name it: where it is only while it is placed on a floor. */
export const alarmDeviceOf = (
  device: Pick<
    Device,
    'devID' | 'orgID' | 'devName' | 'devType' | 'onFloor' | 'floorID' | 'buildID' | 'alarmsOpened'
  >,
): AlarmDevice => ({
  devId: device.devID,
  orgId: device.orgID,
  devName: device.devName,
  devType: device.devType,
  ...(device.onFloor && device.floorID ? { floorId: device.floorID } : {}),
  ...(device.onFloor && device.buildID ? { buildId: device.buildID } : {}),
  ...(device.alarmsOpened !== undefined ? { alarmsOpened: device.alarmsOpened } : {}),
});

/** How notifications and mails name a device: its name, or its id when it has none. */
export const deviceLabel = (device: Pick<AlarmDevice, 'devName' | 'devId'>) =>
  device.devName.trim() === '' ? device.devId : device.devName;

/**
 * An offline episode lasted its grace period (domain/devices/presence.ts decides when): its one
 * 'Device Offline' notification, mailed to the organization's admins. Answers its id; raising the
 * same episode again delivers nothing new.
 */
export async function raiseOfflineEpisode(
  deps: AlarmPorts,
  device: AlarmDevice,
  episodeSince: number,
  time: number,
): Promise<string> {
  return raise(deps, device, {
    key: `offline#${episodeSince}`,
    type: NotificationType.error,
    message: html`<b>${deviceLabel(device)}</b>: ${DEVICE_OFFLINE_TEXT}`,
    time,
    alarm: true,
  });
}

/**
 * Marks an alarm's notification resolved as of `time` (ms); counted (Cleared) only by the call that
 * recorded it, so a repeat counts nothing.
 */
async function resolveAlarm(deps: AlarmPorts, id: string, time: number): Promise<void> {
  if (await clearNotification(deps, id, new Date(time).toISOString())) deps.metrics.count('Cleared', 1);
}

/**
 * An offline episode ended: its notification is marked cleared (and the clearing pushed to open pages)
 * and 'Device Online' is raised.
 */
export async function closeOfflineEpisode(
  deps: AlarmPorts,
  device: AlarmDevice,
  episode: { episodeSince: number; notificationId?: string },
  time: number,
): Promise<void> {
  if (!episode.notificationId) return; // Never notified: it ends as quietly as it began.
  await resolveAlarm(deps, episode.notificationId, time);
  await raise(deps, device, {
    key: `online#${episode.episodeSince}`,
    type: NotificationType.info,
    message: html`<b>${deviceLabel(device)}</b>: ${DEVICE_ONLINE_TEXT}`,
    time,
  });
}

/** One observation of a condition: whether it holds at `time`. */
export interface Observation {
  condition: string;
  active: boolean;
  time: number;
  /** Raise once the condition has held this long (0: at once). */
  raiseAfterMs: number;
  /**
   * Raise only once the device's floor has also been in use that long: a room's comfort matters to
   * the people in it, not to an empty building at night.
   */
  whenInUse?: boolean;
  type: NotificationTypeNumber;
  /** The message of the notification (HTML built with `html`). */
  message: string;
}

const dataPointLabel: Record<string, string> = {
  temp: 'Temperature',
  hum: 'Humidity',
  pressure: 'Pressure',
  co2: 'CO2',
  voc: 'VOC',
  lux: 'Illuminance',
  cct: 'Colour temperature',
  aqi: 'Air quality',
};

/** A reading in its comfort zone's unit (pressure is reported in Pa, its zone is in kPa). */
const inZoneUnit = (dp: string, value: number) => (dp === 'pressure' ? value / 1000 : value);

const comfortMessage = (
  name: string,
  label: string,
  value: number,
  zone: { min: number; max: number; unit: string },
) => {
  const reading = `${Number(value.toFixed(1))} ${zone.unit}`;
  const range = `${zone.min}-${zone.max} ${zone.unit}`;
  return html`<b>${name}</b>: ${label} ${reading} is not in comfort zone (${range}).`;
};

/**
 * Pollutants: less is always better air. Their comfort zones' lower bounds shape the comfort graph
 * (VOC 0.5-1 PPM), but a reading below one is clean air, never a warning worth reading.
 */
const POLLUTANTS = new Set(['co2', 'voc', 'aqi']);

/** The comfort observations of one reading of a device. */
export function comfortObservations(
  device: Pick<AlarmDevice, 'devType' | 'devName' | 'devId'>,
  time: number,
  values: Record<string, number>,
): Observation[] {
  if (UNCHECKED_TYPES.has(device.devType)) return [];
  return Object.entries(values).flatMap(([dp, raw]) => {
    const zone = COMFORT_ZONES[dp];
    if (!zone) return [];
    const value = inZoneUnit(dp, raw);
    const label = dataPointLabel[dp] ?? dp;
    return [
      {
        condition: `comfort:${dp}`,
        active: value > zone.max || (value < zone.min && !POLLUTANTS.has(dp)),
        time,
        raiseAfterMs: COMFORT_ALARM_AFTER_MS,
        whenInUse: true,
        type: NotificationType.warning,
        message: comfortMessage(
          device.devName.trim() === '' ? device.devId : device.devName,
          label,
          value,
          zone,
        ),
      },
    ];
  });
}

/** What a device's alarm state holds once observations are applied. */
export interface ObservedAlarms {
  /** Some condition is open. */
  open: boolean;
  /**
   * The write that applied them opened an episode: a condition the state read did not hold, or held
   * since another time.
   */
  opened: boolean;
}

/** Whether a state written opens an episode the state read did not hold (absent, or since another time). */
const opensEpisode = (read: DeviceAlarms | undefined, next: ReadonlyMap<string, OpenCondition>) =>
  [...next].some(([condition, open]) => read?.conditions[condition]?.since !== open.since);

/**
 * Applies a device's observations (any order; older than what was applied are ignored) and raises
 * or resolves notifications. Safe to run twice for the same observations (a redelivered batch): the
 * episode's notification id is derived from the condition and its start, and the state write is
 * conditioned on the version read. `floorInUse` tells, when a `whenInUse` condition needs it, whether
 * people are on the device's floor now (asked at most once a call; without it, always). Answers what
 * the state holds once they are applied (undefined: no observations, or the state kept changing).
 * Every decision is on the observations' own times: the caller's clock (`_now`) is not needed.
 */
export async function observeDevice(
  deps: AlarmPorts,
  device: AlarmDevice,
  observations: readonly Observation[],
  _now = Date.now(),
  floorInUse: () => Promise<boolean> = async () => true,
): Promise<ObservedAlarms | undefined> {
  if (observations.length === 0) return undefined;
  const sorted = [...observations].sort((a, b) => a.time - b.time);
  let inUse: Promise<boolean> | undefined;
  const inUseNow = () => (inUse ??= floorInUse());
  /** Raised by an attempt whose write then lost: settled once an attempt is saved (`settleRaised`). */
  const raisedBefore = new Set<string>();

  // A write that lost to another (readings of the device in several instances) reads again, after a pause.
  for (let attempt = 1; attempt <= conflictBackOff.attempts; attempt++) {
    if (attempt > 1) await pauseBefore(attempt - 1);
    const read = await deps.alarms.get(device.devId);
    const raisedNow = new Set<string>();
    const conditions = new Map(Object.entries(read?.conditions ?? {}).map(([k, v]) => [k, { ...v }]));
    const clearing = { ...read?.clearing };
    const observedAt = read?.observedAt ?? 0;
    let changed = false;
    for (const o of sorted) {
      if (o.time < observedAt) continue;
      let open = conditions.get(o.condition);
      if (
        open &&
        !open.notificationId &&
        o.time - (open.lastAt ?? open.since) > o.raiseAfterMs + LAST_AT_REFRESH_MS
      ) {
        // Not heard for longer than it takes to raise (a gateway down overnight): nobody knows what
        // happened meanwhile, so the episode starts again rather than raising on one reading.
        conditions.delete(o.condition);
        open = undefined;
        changed = true;
      }
      if (o.active) {
        const current: OpenCondition = open ?? { since: o.time };
        if (!open) {
          conditions.set(o.condition, current);
          changed = true;
        } else if (
          !current.notificationId &&
          o.time - (current.lastAt ?? current.since) >= LAST_AT_REFRESH_MS
        ) {
          current.lastAt = o.time;
          changed = true;
        }
        if (!current.notificationId && o.whenInUse) {
          // In use now or not, as the floor's devices tell at this reading (its occupancy is not
          // kept per minute): a break starts the count again.
          if (await inUseNow()) {
            if (current.inUseSince === undefined) {
              current.inUseSince = o.time;
              changed = true;
            }
          } else if (current.inUseSince !== undefined) {
            delete current.inUseSince;
            changed = true;
          }
        }
        const inUseLongEnough =
          !o.whenInUse || (current.inUseSince !== undefined && o.time - current.inUseSince >= o.raiseAfterMs);
        if (!current.notificationId && o.time - current.since >= o.raiseAfterMs && inUseLongEnough) {
          // Raised before the state is written: if the write loses a race, the retry meets the
          // same episode id and delivers nothing new.
          current.notificationId = await raise(deps, device, {
            key: `${o.condition}#${current.since}`,
            type: o.type,
            message: o.message,
            time: o.time,
            alarm: true,
          });
          delete current.lastAt;
          raisedNow.add(current.notificationId);
          changed = true;
        }
      } else if (open) {
        if (open.notificationId) clearing[open.notificationId] = o.time;
        conditions.delete(o.condition);
        changed = true;
      }
    }
    if (!changed) {
      await settleRaised(deps, raisedBefore, conditions, observedAt);
      if (read) await settleClearing(deps, read);
      return { open: conditions.size > 0, opened: false };
    }
    const next: DeviceAlarms = {
      devId: device.devId,
      conditions: Object.fromEntries(conditions),
      observedAt: Math.max(observedAt, sorted.at(-1)?.time ?? 0),
      ...(read?.events ? { events: read.events } : {}),
      ...(Object.keys(clearing).length > 0 ? { clearing } : {}),
      version: (read?.version ?? 0) + 1,
    };
    if ((await deps.alarms.saveIfUnchanged(next, read)) === 'saved') {
      await settleRaised(deps, raisedBefore, conditions, next.observedAt);
      await settleClearing(deps, next);
      return { open: conditions.size > 0, opened: opensEpisode(read, conditions) };
    }
    for (const id of raisedNow) raisedBefore.add(id);
  }
  deps.logger.log('warn', 'Alarm state kept changing; observations left for the next reading', {
    devId: device.devId,
  });
  return undefined;
}

/**
 * Marks resolved the notifications of the episodes a saved state ended (`clearing`), each as of its
 * end, then saves the state without them. Resolving is idempotent, so when that write loses (another
 * reading saved meanwhile, carrying them over), whoever reads them next resolves them again, which
 * changes nothing.
 */
async function settleClearing(deps: AlarmPorts, saved: DeviceAlarms): Promise<void> {
  if (!saved.clearing) return;
  for (const [id, endedAt] of Object.entries(saved.clearing)) {
    await resolveAlarm(deps, id, endedAt);
  }
  const { clearing: _delivered, ...rest } = saved;
  await deps.alarms.saveIfUnchanged({ ...rest, version: saved.version + 1 }, saved);
}

/**
 * A notification raised by an attempt whose write lost, when the state saved since holds it in no
 * episode: a newer reading ended that episode meanwhile (another batch saved it back in its zone
 * before this one's write), so nothing would ever resolve it. It is resolved as of the observations
 * the saved state stands for.
 */
async function settleRaised(
  deps: AlarmPorts,
  raised: ReadonlySet<string>,
  conditions: ReadonlyMap<string, OpenCondition>,
  asOf: number,
): Promise<void> {
  if (raised.size === 0) return;
  const held = new Set([...conditions.values()].map((c) => c.notificationId));
  for (const id of raised) {
    if (held.has(id)) continue;
    await resolveAlarm(deps, id, asOf);
  }
}

/**
 * Raises the notification of an episode or event (once per key) and mails error ones; answers its id.
 * An alarm episode's first raise is counted (Raised); raising it again counts nothing.
 */
async function raise(
  deps: AlarmPorts,
  device: AlarmDevice,
  event: { key: string; type: NotificationTypeNumber; message: string; time: number; alarm?: boolean },
): Promise<string> {
  const { notification, outcome } = await raiseNotification(deps, {
    orgId: device.orgId,
    type: event.type,
    message: event.message,
    properties: {
      devID: device.devId,
      ...(device.floorId ? { floorID: device.floorId } : {}),
      ...(device.buildId ? { buildID: device.buildId } : {}),
    },
    episodeKey: `${device.devId}#${event.key}`,
    time: event.time,
  });
  if (outcome === 'new' && event.alarm) deps.metrics.count('Raised', 1);
  if (outcome === 'new' && event.type === NotificationType.error)
    await deps.alarmMail.send({ kind: 'alarm', notificationId: notification.id });
  return notification.id;
}

/** A one-off event (a failed command): its own notification, once per event key. */
export async function raiseEvent(
  deps: AlarmPorts,
  device: AlarmDevice,
  event: { key: string; type: NotificationTypeNumber; message: string; time: number },
): Promise<void> {
  await raise(deps, device, { ...event, key: `event#${event.key}` });
}

/**
 * A device's repeating event (a pairing failure) raises a notification at most once in this long:
 * a device that fails every few seconds while someone retries is one notification (and one mail),
 * not one a failure. Its live message still reaches open pages each time.
 */
export const REPEATING_EVENT_QUIET_MS = 10 * 60_000;

/**
 * Raises a repeating event of a device unless one of its kind raised a notification less than
 * REPEATING_EVENT_QUIET_MS before or after it (a late or redelivered older event is news no more
 * than a newer one). The raise is recorded in the device's alarm state first (written conditioned
 * on its version, so two instances cannot both raise), then made: the same event delivered again
 * finds its own time recorded and raises again, which the notification's id makes a no-op. Answers
 * whether the event's notification was raised.
 */
export async function raiseRepeatingEvent(
  deps: AlarmPorts,
  device: AlarmDevice,
  event: { kind: string; type: NotificationTypeNumber; message: string; time: number },
): Promise<boolean> {
  for (let attempt = 1; attempt <= conflictBackOff.attempts; attempt++) {
    if (attempt > 1) await pauseBefore(attempt - 1);
    const read = await deps.alarms.get(device.devId);
    const last = read?.events?.[event.kind];
    if (last !== undefined && last !== event.time && Math.abs(event.time - last) < REPEATING_EVENT_QUIET_MS) {
      deps.logger.log('info', 'Repeated event within its quiet period: not raised again', {
        devId: device.devId,
        kind: event.kind,
        raisedAt: last,
      });
      return false;
    }
    if (last === undefined || event.time > last) {
      // The state as read (its episodes and resolutions not yet delivered), with the event's time.
      const next: DeviceAlarms = {
        devId: device.devId,
        conditions: {},
        observedAt: 0,
        ...read,
        events: { ...read?.events, [event.kind]: event.time },
        version: (read?.version ?? 0) + 1,
      };
      if ((await deps.alarms.saveIfUnchanged(next, read)) === 'changed-meanwhile') continue;
    }
    await raise(deps, device, {
      key: `event#${event.kind}#${event.time}`,
      type: event.type,
      message: event.message,
      time: event.time,
    });
    return true;
  }
  deps.logger.log('warn', 'Alarm state kept changing; repeating event not raised', {
    devId: device.devId,
    kind: event.kind,
  });
  return false;
}

/** A reading as ingest stored it. */
export interface StoredReading {
  devId: string;
  time: number;
  values: Record<string, number>;
}

/** Whether people are on a floor now (domain/devices/occupancy.ts `floorInUse`). */
export interface FloorOccupancy {
  inUse(floorId: string): Promise<boolean>;
}

/**
 * Devices this instance (a Lambda instance: the module's own) found with no open condition, until
 * when it trusts that, and how many alarm episodes the device item counted when it read the state.
 */
const quiet = new Map<string, { until: number; alarmsOpened: number }>();
const QUIET_TTL_MS = 5 * 60_000;

/**
 * The comfort alarms of a batch of stored readings. A device with no open condition whose readings
 * are all in their zones costs nothing (no read); the others' alarm states are read together, in one
 * request per 100 devices (`getMany`), and read again one by one only when a write lost to another.
 * Comfort is a room's, for the people in it: an alarm is raised once a reading has been out of its
 * zone for 10 minutes while the device's floor was in use for 10 minutes (an empty office that cools
 * at night is no news), and never for a device on no floor.
 *
 * "No open condition" is what this instance found when it last read the state, and another instance
 * may open an episode at any time; an in-zone reading skipped then would not end it, and the alarm
 * would be raised early. So each episode opened is counted on the device item (`noteAlarmOpened`,
 * after its state is saved), and the skip holds only while the device as the reading's own write
 * answered it (`devices.get`, taken before the state is read; no read of its own) counts as many
 * openings as when this instance found none: whichever instance takes a reading, one opened meanwhile
 * is seen.
 */
export async function observeReadings(
  deps: AlarmPorts & {
    devices: {
      get(devId: string): Promise<AlarmDevice | undefined>;
      /** Counts an alarm episode opened on the device item (AlarmDevice `alarmsOpened`). */
      noteAlarmOpened(devId: string): Promise<void>;
    };
    occupancy: FloorOccupancy;
  },
  readings: readonly StoredReading[],
  now = Date.now(),
): Promise<void> {
  const byDevice = new Map<string, StoredReading[]>();
  for (const r of readings) byDevice.set(r.devId, [...(byDevice.get(r.devId) ?? []), r]);
  // The devices whose state must be read: not those known quiet whose readings are all in their zones.
  const observed = await mapLimited([...byDevice], OBSERVED_AT_ONCE, async ([devId, own]) => {
    const outOfZone = own.some((r) =>
      comfortObservations({ devType: DeviceType.ieq, devName: '', devId }, r.time, r.values).some(
        (o) => o.active,
      ),
    );
    const device = await deps.devices.get(devId);
    if (!device) return undefined;
    const alarmsOpened = device.alarmsOpened ?? 0;
    const known = quiet.get(devId);
    if (!outOfZone && known && known.until > now && known.alarmsOpened === alarmsOpened) return undefined;
    return { device, own, alarmsOpened };
  });
  const toObserve = observed.filter((o) => o !== undefined);
  if (toObserve.length === 0) return;
  const states = await deps.alarms.getMany(toObserve.map((o) => o.device.devId));
  // Devices are observed apart (each alarm write is conditioned on its own device), several at once;
  // each one's first read is the state read above.
  await mapLimited(toObserve, OBSERVED_AT_ONCE, async ({ device, own, alarmsOpened }) => {
    const { devId } = device;
    let read = false;
    const alarms: AlarmStore = {
      ...deps.alarms,
      get: async (id) => {
        if (id !== devId || read) return deps.alarms.get(id);
        read = true;
        return states.get(devId);
      },
    };
    const floorId = device.floorId;
    const state = await observeDevice(
      { ...deps, alarms },
      device,
      own.flatMap((r) => comfortObservations(device, r.time, r.values)),
      now,
      // A device on no floor measures no room anyone uses: it raises nothing, but an alarm it had
      // before it was taken off its floor still clears.
      async () => floorId !== undefined && (await deps.occupancy.inUse(floorId)),
    );
    if (state?.open === false) quiet.set(devId, { until: now + QUIET_TTL_MS, alarmsOpened });
    else quiet.delete(devId);
    if (state?.opened) await deps.devices.noteAlarmOpened(devId);
  });
}

/** How many devices of a batch observeReadings decides at once. */
const OBSERVED_AT_ONCE = 16;
