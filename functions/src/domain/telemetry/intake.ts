import { onBrokerClock } from '@argentum/contracts';
import type { Device } from '../devices/device';
import { floorInUse } from '../devices/occupancy';
import { observeReadingsPresence, type PresencePorts } from '../devices/presence';
import {
  alarmDeviceOf,
  type AlarmPorts,
  type FloorOccupancy,
  observeReadings,
} from '../notifications/alarms';
import type { Clock, Logger, Metrics } from '../ports';
import type { ReadingArchive } from './archive';
import { type LiveFloorPorts, publishLiveFloors } from '../realtime/live-floor';
import {
  type BatchResult,
  type DeadLetters,
  type IngestPorts,
  ingestBatch,
  type QueuedReading,
} from './ingest';

/** What taking a batch of telemetry needs: storing it, and what follows from a stored reading. */
export interface TelemetryIntakePorts {
  telemetry: IngestPorts['telemetry'];
  devices: Pick<IngestPorts['devices'], 'ownerOf'> & {
    get(devId: string): Promise<Device | undefined>;
    /** The devices placed on a floor (whether people are there, for comfort alarms). */
    onFloor(floorId: string): Promise<Device[]>;
    /**
     * Records a device's latest readings (older never overwrite newer), and its clock's offset from its
     * own newest reading, and answers the device as the write left it; undefined when a newer reading
     * was there.
     */
    recordLatest(
      devId: string,
      time: number,
      values: Record<string, number>,
      clockOffset?: number,
    ): Promise<Device | undefined>;
    /** Counts an alarm episode its readings opened on the device item (Device `alarmsOpened`). */
    noteAlarmOpened(devId: string): Promise<void>;
  };
  deadLetters: DeadLetters;
  /** The long-term archive: what was accepted, one request a batch. */
  archive?: ReadingArchive;
  /** Comfort alarms, evaluated as readings arrive. */
  alarms: AlarmPorts;
  /** A reading moves its device online. */
  presence: PresencePorts;
  /** Browsers watching a floor get its devices' newest values. */
  liveFloors: Pick<LiveFloorPorts, 'publisher'>;
  logger: Logger;
  /** Namespace Argentum/Telemetry: the batch's counts. */
  metrics: Metrics;
  clock: Clock;
}

/**
 * Takes a batch from the telemetry queue (at least once): stores it (`ingestBatch`: each record's fate
 * is its own), then the stored readings raise or resolve comfort alarms, and each device's newest one
 * goes to the browsers watching its floor (one message per floor and batch) and moves it online.
 * Answers the records to deliver again; the counts go to the log and the metrics.
 */
export async function takeTelemetry(
  deps: TelemetryIntakePorts,
  records: readonly QueuedReading[],
): Promise<string[]> {
  // Each device's latest-values write answers the device as it left it: live placement, comfort
  // alarms and presence decide from that image, so a reading costs one write and no device reads
  // (docs/cost.md). A device whose write did not answer one (a newer reading was there) is read.
  const recorded = new Map<string, Device>();
  const deviceOf = async (devId: string) => recorded.get(devId) ?? (await deps.devices.get(devId));
  const alarmDevice = async (devId: string) => {
    const device = await deviceOf(devId);
    return device && alarmDeviceOf(device);
  };
  const liveFloors: LiveFloorPorts = {
    placements: {
      placementOf: async (devId) => {
        const device = await deviceOf(devId);
        return device && { orgId: device.orgID, floorId: device.onFloor ? device.floorID : undefined };
      },
    },
    publisher: deps.liveFloors.publisher,
    logger: deps.logger,
  };
  // Presence reads again after its conditional write lost a race: only its first read takes the image.
  const presenceTaken = new Set<string>();
  const presence: PresencePorts = {
    ...deps.presence,
    presence: {
      ...deps.presence.presence,
      get: async (devId) => {
        const image = presenceTaken.has(devId) ? undefined : recorded.get(devId);
        presenceTaken.add(devId);
        return image ?? deps.presence.presence.get(devId);
      },
    },
  };
  const now = deps.clock.now().getTime();
  // Asked only when a comfort alarm is about to count, once per floor and batch.
  const floorsInUse = new Map<string, Promise<boolean>>();
  const occupancy: FloorOccupancy = {
    inUse: (floorId) => {
      let known = floorsInUse.get(floorId);
      if (!known) {
        known = deps.devices.onFloor(floorId).then((devices) => floorInUse(devices, now));
        floorsInUse.set(floorId, known);
      }
      return known;
    },
  };
  const { retry, counts } = await ingestBatch(
    {
      telemetry: deps.telemetry,
      devices: {
        ownerOf: deps.devices.ownerOf,
        recordLatest: async (devId, time, values, clockOffset) => {
          const device = await deps.devices.recordLatest(devId, time, values, clockOffset);
          if (!device) return undefined;
          recorded.set(devId, device);
          const brought = Object.entries(values).filter(([point]) => device.latestAt?.[point] === time);
          return {
            orgId: device.orgID,
            taken: {
              time: device.lastSeen ?? time,
              values: Object.fromEntries(brought),
              latestAt: Object.fromEntries(brought.map(([point]) => [point, time])),
              ...(device.clockOffset !== undefined ? { clockOffset: device.clockOffset } : {}),
            },
          };
        },
      },
      deadLetters: deps.deadLetters,
      archive: deps.archive,
      readings: {
        stored: (points) =>
          observeReadings(
            {
              ...deps.alarms,
              devices: { get: alarmDevice, noteAlarmOpened: (devId) => deps.devices.noteAlarmOpened(devId) },
              occupancy,
            },
            points,
            now,
          ),
      },
      live: {
        recorded: async (newest) => {
          await publishLiveFloors(liveFloors, newest);
          // Presence weighs when the broker heard each reading, not the device's clock.
          const heard = newest.map((r) => ({
            devId: r.devId,
            time: onBrokerClock(recorded.get(r.devId) ?? {}, r.time),
          }));
          await observeReadingsPresence(presence, heard, deps.clock.now().getTime());
        },
      },
      logger: deps.logger,
    },
    records,
    now,
  );
  recordCounts(deps, counts);
  return retry;
}

/** A batch's counts: a log line (a warning when anything was not stored), and one metric each. */
function recordCounts(deps: Pick<TelemetryIntakePorts, 'logger' | 'metrics'>, counts: BatchResult['counts']) {
  const level = counts.Invalid + counts.UnknownDevice + counts.Failed > 0 ? 'warn' : 'info';
  deps.logger.log(level, 'telemetry batch', counts);
  for (const [name, value] of Object.entries(counts)) deps.metrics.count(name, value);
}
