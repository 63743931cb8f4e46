import type { TelemetryMessage } from '@argentum/contracts/messaging';

/**
 * Where a reading a device did not publish itself goes on as its telemetry (on AWS the telemetry
 * rule's Basic Ingest topic, adapters/basic-ingest-readings.ts), so ingest, latest values, history,
 * alarms and the live floor treat it as the device's own: what a third-party device's vendor reports,
 * and the value a device confirmed for a command.
 */
export interface ReadingSink {
  send(orgId: string, message: TelemetryMessage): Promise<void>;
}

/** A device's reading at `time`, as the device itself would send it. */
export const readingMessage = (
  device: { devID: string; devType: number },
  time: number,
  values: Record<string, number>,
): TelemetryMessage => ({ devID: device.devID, devType: device.devType, time, values });
