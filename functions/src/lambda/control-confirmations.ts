import { Command, confirmationMessageSchema } from '@argentum/events';
import { observePresence } from '../domain/devices/presence';
import { assertConfigured } from '../config';
import { alarmsOfDeviceMessage } from '../domain/notifications/device-messages';
import { applyDeviceReport } from '../domain/devices/reports';
import { dynamoDevices, getDevice } from '../stores/devices';
import { type ConfirmationResult, handleConfirmation } from '../domain/control/confirmations';
import { log } from '../http/log';
import { confirmationPorts } from './wiring/control';
import { clock } from './wiring/core';
import { alarmDevice, alarmPorts } from './wiring/notifications';
import { presencePorts } from './wiring/presence';

const alarms = alarmPorts();
const presence = presencePorts();

/**
 * A device's own word: its reported state is stored (domain/devices/reports.ts), and offline, pairing
 * failures and failed or late commands become notifications (device-messages.ts).
 */
async function actOnDeviceMessage(
  orgId: string,
  outcome: 'success' | 'fail',
  message: Record<string, unknown>,
  settled: ConfirmationResult,
  /** When the broker received the message: the same for a redelivery, so its event is raised once. */
  time: number,
): Promise<void> {
  if (settled === 'invalid' || settled === 'unknown' || settled === 'duplicate') return;
  const parsed = confirmationMessageSchema.safeParse(message);
  if (!parsed.success) return;
  // What the device says about itself (pairing mode, power node ports) becomes its stored state.
  await applyDeviceReport({ devices: dynamoDevices, clock }, { orgId, outcome, message: parsed.data });
  const device = await getDevice(parsed.data.devID);
  // Only a device of this organization can raise its alarms or move its presence.
  if (!device || device.orgID !== orgId) return;
  // Its own word moves its presence: an announcement (cmnd 1 without a command) or any reply.
  const announced = parsed.data.cmnd === Command.deviceOnline && !parsed.data.commandId;
  await observePresence(
    presence,
    device.devID,
    announced ? { kind: 'announced', online: outcome === 'success', at: time } : { kind: 'reply', at: time },
    Date.now(),
  );
  await alarmsOfDeviceMessage(alarms, alarmDevice(device), {
    outcome,
    message: parsed.data,
    settled,
    time,
  });
}

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

/** What the IoT rule `SELECT *, topic(1) AS orgId, topic(3) AS outcome, timestamp() AS receivedAt` sends. */
export interface ConfirmationEvent {
  orgId?: unknown;
  outcome?: unknown;
  receivedAt?: unknown;
  [field: string]: unknown;
}

/**
 * The confirmation rule invokes this function with each message a device publishes on
 * `{orgId}/controldata/success|fail`; it settles the tracked command (domain/control/confirmations.ts).
 * A message that is not a confirmation is dropped; a failure to store throws, and IoT Core's
 * asynchronous invocation retries it (settling is idempotent).
 */
export async function handler(event: ConfirmationEvent): Promise<{ result: ConfirmationResult }> {
  const { orgId, outcome, receivedAt, ...message } = event;
  if (typeof orgId !== 'string' || (outcome !== 'success' && outcome !== 'fail')) {
    log('warn', 'not a confirmation', { orgId: String(orgId), outcome: String(outcome) });
    return { result: 'invalid' };
  }
  const result = await handleConfirmation(confirmationPorts(), {
    orgId,
    outcome,
    message,
    ...(typeof receivedAt === 'number' ? { receivedAt } : {}),
  });
  await actOnDeviceMessage(
    orgId,
    outcome,
    message,
    result,
    typeof receivedAt === 'number' ? receivedAt : Date.now(),
  );
  log(result === 'invalid' || result === 'unknown' ? 'warn' : 'info', 'confirmation', {
    orgId,
    outcome,
    result,
    devID: typeof message.devID === 'string' ? message.devID.slice(0, 64) : undefined,
    commandId: typeof message.commandId === 'string' ? message.commandId.slice(0, 64) : undefined,
  });
  return { result };
}
