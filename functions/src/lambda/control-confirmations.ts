import { flushingMetrics } from '../adapters/emf-metrics';
import { iotLiveFloorPublisher } from '../adapters/live-floor-publisher';
import { assertConfigured } from '../config';
import type { ConfirmationResult } from '../domain/control/confirmations';
import { type DeviceWordEvent, type DeviceWordPorts, receiveDeviceWord } from '../domain/control/device-word';
import { dynamoDevices, getDevice } from '../stores/devices';
import { log } from '../http/log';
import { confirmationPorts } from './wiring/control';
import { clock } from './wiring/core';
import { alarmDevice, alarmPorts } from './wiring/notifications';
import { presencePorts } from './wiring/presence';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

const ports: DeviceWordPorts = {
  ...confirmationPorts(),
  reports: { devices: dynamoDevices, clock },
  alarms: alarmPorts(),
  presence: presencePorts(),
  alarmDevice: async (devId) => {
    const device = await getDevice(devId);
    return device && alarmDevice(device);
  },
  live: iotLiveFloorPublisher,
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
  async (event: ConfirmationEvent): Promise<{ result: ConfirmationResult }> => {
    const result = await receiveDeviceWord(ports, event);
    const { orgId, outcome, clientId, devID, commandId } = event;
    const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 64) : undefined);
    log(result === 'invalid' || result === 'unknown' ? 'warn' : 'info', 'confirmation', {
      orgId: text(orgId) ?? String(orgId),
      outcome: text(outcome) ?? String(outcome),
      result,
      clientId: text(clientId),
      devID: text(devID),
      commandId: text(commandId),
    });
    return { result };
  },
);
