import { flushingMetrics } from '../adapters/emf-metrics';
import { basicIngestReadings } from '../adapters/basic-ingest-readings';
import { iotLiveFloorPublisher } from '../adapters/live-floor-publisher';
import { assertConfigured } from '../config';
import { ENV } from '../environment';
import type { ConfirmationResult } from '../domain/control/confirmations';
import { type DeviceWordEvent, type DeviceWordPorts, receiveDeviceWord } from '../domain/control/device-word';
import { dynamoDevices } from '../stores/devices';
import { confirmationPorts } from './wiring/control';
import { clock } from './wiring/core';
import { alarmPorts } from './wiring/notifications';
import { presencePorts } from './wiring/presence';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured(process.env, [ENV.telemetryRuleName]);

const ports: DeviceWordPorts = {
  ...confirmationPorts(),
  reports: { devices: dynamoDevices, clock },
  alarms: alarmPorts(),
  presence: presencePorts(),
  live: iotLiveFloorPublisher,
  readings: basicIngestReadings,
};

/** What the IoT rule `SELECT *, topic(1) AS orgId, topic(3) AS outcome, clientid() AS clientId, timestamp() AS receivedAt` sends. */
export type ConfirmationEvent = DeviceWordEvent;

/**
 * The confirmation rule invokes this function with each message a device publishes on
 * `{orgId}/controldata/success|fail` (domain/control/device-word.ts). A message that is not a
 * confirmation, or names another device than its sender, is dropped; a failure to store throws, and IoT
 * Core's asynchronous invocation retries it (settling is idempotent).
 */
export const handler = flushingMetrics(
  async (event: ConfirmationEvent): Promise<{ result: ConfirmationResult }> => ({
    result: await receiveDeviceWord(ports, event),
  }),
);
