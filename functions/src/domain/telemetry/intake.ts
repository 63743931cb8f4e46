import type { Device } from '../devices/device';
import { observeReadingsPresence, type PresencePorts } from '../devices/presence';
import { alarmDeviceOf, type AlarmPorts, observeReadings } from '../notifications/alarms';
import type { Clock, Logger, Metrics } from '../ports';
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
  devices: IngestPorts['devices'] & { get(devId: string): Promise<Device | undefined> };
  deadLetters: DeadLetters;
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
  const alarmDevice = async (devId: string) => {
    const device = await deps.devices.get(devId);
    return device && alarmDeviceOf(device);
  };
  const liveFloors: LiveFloorPorts = {
    placements: {
      placementOf: async (devId) => {
        const device = await deps.devices.get(devId);
        return device && { orgId: device.orgID, floorId: device.onFloor ? device.floorID : undefined };
      },
    },
    publisher: deps.liveFloors.publisher,
    logger: deps.logger,
  };
  const now = deps.clock.now().getTime();
  const { retry, counts } = await ingestBatch(
    {
      telemetry: deps.telemetry,
      devices: deps.devices,
      deadLetters: deps.deadLetters,
      readings: {
        stored: (points) => observeReadings({ ...deps.alarms, devices: { get: alarmDevice } }, points),
      },
      live: {
        recorded: async (newest) => {
          await publishLiveFloors(liveFloors, newest);
          await observeReadingsPresence(deps.presence, newest, deps.clock.now().getTime());
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
