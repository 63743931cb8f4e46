import { Command, confirmationMessageSchema, groupingFailureOf } from '@argentum/contracts/messaging';
import { observePresence, type PresencePorts } from '../devices/presence';
import { applyDeviceReport, type DeviceReportPorts, isPortReport } from '../devices/reports';
import { type LiveFloorPublisher, publishGroupingFailure, publishPortReport } from '../realtime/live-floor';
import { alarmDeviceOf, type AlarmPorts } from '../notifications/alarms';
import { alarmsOfDeviceMessage } from '../notifications/device-messages';
import { type ReadingSink, readingMessage } from '../devices/reading-sink';
import { type ConfirmationPorts, type ConfirmationResult, settleConfirmation } from './confirmations';
import { confirmedReading, confirmedReadingTime } from './confirmed-reading';

/** What the confirmation rule delivers: the device's message and what the broker knows about it. */
export interface DeviceWordEvent {
  /** topic(1): the organization of the confirmation topic. */
  orgId?: unknown;
  /** topic(3): success or fail. */
  outcome?: unknown;
  /** clientid(): the publishing connection's client id, which IoT Core binds to the device's thing name. */
  clientId?: unknown;
  /** timestamp(): when the broker received it. */
  receivedAt?: unknown;
  [field: string]: unknown;
}

export interface DeviceWordPorts extends ConfirmationPorts {
  reports: DeviceReportPorts;
  alarms: AlarmPorts;
  presence: PresencePorts;
  /**
   * Pushes a power node's port values, and a device's grouping failure, to the browsers that have its
   * floor open.
   */
  live: LiveFloorPublisher;
  /** Where a value the device confirmed goes on as its reading (its data points; Basic Ingest). */
  readings: ReadingSink;
}

/**
 * A device's word on `{orgId}/controldata/success|fail`: it settles the tracked command
 * (confirmations.ts), what the device says about itself becomes its stored state (devices/reports.ts),
 * offline, pairing failures and failed or late commands become notifications
 * (notifications/device-messages.ts), and a power node's port values and a grouping failure go to its
 * floor's open pages (realtime/live-floor.ts; pages do not subscribe to devices' words). A device speaks
 * only for itself: a message naming another device than the publishing connection's (clientId = thing
 * name) counts for nothing, like an unknown one.
 */
export async function receiveDeviceWord(
  deps: DeviceWordPorts,
  event: DeviceWordEvent,
): Promise<ConfirmationResult> {
  const result = await settleDeviceWord(deps, event);
  // A line per message: what it said it was and what came of it (untrusted texts cut short).
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 64) : undefined);
  deps.logger.log(result === 'invalid' || result === 'unknown' ? 'warn' : 'info', 'confirmation', {
    orgId: text(event.orgId) ?? String(event.orgId),
    outcome: text(event.outcome) ?? String(event.outcome),
    result,
    clientId: text(event.clientId),
    devID: text(event.devID),
    commandId: text(event.commandId),
  });
  return result;
}

async function settleDeviceWord(deps: DeviceWordPorts, event: DeviceWordEvent): Promise<ConfirmationResult> {
  const { orgId, outcome, clientId, receivedAt, ...message } = event;
  if (typeof orgId !== 'string' || (outcome !== 'success' && outcome !== 'fail')) return 'invalid';
  const arrivedAt = typeof receivedAt === 'number' && Number.isFinite(receivedAt) ? receivedAt : undefined;
  const {
    result: settled,
    state,
    repeated,
  } = await settleConfirmation(deps, {
    orgId,
    outcome,
    clientId: typeof clientId === 'string' ? clientId : undefined,
    message,
    ...(arrivedAt !== undefined ? { receivedAt: arrivedAt } : {}),
  });
  if (settled === 'invalid' || settled === 'unknown' || settled === 'duplicate') return settled;
  const parsed = confirmationMessageSchema.safeParse(message);
  if (!parsed.success) return settled;
  // When the broker received the message: the same for a redelivery, so its event is raised once, and
  // what orders a power node's port reports.
  const time = arrivedAt ?? deps.clock.now().getTime();
  const applied = await applyDeviceReport(deps.reports, { orgId, outcome, message: parsed.data, at: time });
  const registered = await deps.reports.devices.get(parsed.data.devID);
  const device = registered && alarmDeviceOf(registered);
  // Only a device of this organization moves its presence or raises its alarms.
  if (!registered || !device || device.orgId !== orgId) return settled;
  // The value it confirmed is its state from then on: its reading, so the floor's table, popups and
  // history show what its panel shows at once, not at its next report.
  const confirmed = state && confirmedReading(registered, state.command, state.val);
  // When: the broker's time on the device's own clock, where its readings are (confirmedReadingTime).
  const readingAt = confirmed && state && confirmedReadingTime(registered, confirmed, state.at);
  if (state && confirmed && readingAt !== undefined) {
    try {
      await deps.readings.send(orgId, readingMessage(registered, readingAt, confirmed));
    } catch (error) {
      // Settled and stored already (a redelivery would be a duplicate): its next report brings it.
      deps.logger.log('warn', 'a confirmed value was not handed on as a reading', {
        devId: registered.devID,
        commandId: state.command.commandId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  // A power node's port values (201/202/203) go to its floor's open views: the values it changed to
  // that are the ports' current ones (stored above), or its failure. A success with a value it cannot
  // hold (not 0 or 1) changed nothing, and one older than the reports that set its ports lost: neither
  // is told. Told once: a repeated word (`repeated`) stores its effects again but is not announced again.
  if (!repeated && isPortReport(parsed.data) && device.floorId && (outcome === 'fail' || applied.ports)) {
    const ports = outcome === 'success' ? applied.ports : undefined;
    const val = parsed.data.val;
    await publishPortReport(
      { publisher: deps.live, logger: deps.logger },
      {
        orgId,
        floorId: device.floorId,
        devId: device.devId,
        report: {
          cmnd: parsed.data.cmnd,
          outcome,
          ...(outcome === 'success' && (val === 0 || val === 1) ? { val } : {}),
          at: time,
        },
        ...(ports ? { ports } : {}),
      },
    );
  }
  // Its own word moves its presence: an announcement (cmnd 1 without a command) or any reply.
  const announced = parsed.data.cmnd === Command.deviceOnline && !parsed.data.commandId;
  await observePresence(
    deps.presence,
    device.devId,
    announced ? { kind: 'announced', online: outcome === 'success', at: time } : { kind: 'reply', at: time },
    deps.clock.now().getTime(),
  );
  await alarmsOfDeviceMessage(deps.alarms, device, { outcome, message: parsed.data, settled, time });
  // A grouping failure it tells on its own (no command of ours it answers) goes to its floor's open
  // pages, which announce it and read the floor again; a device on no floor is on no page. Last, once
  // the rest is stored: a retried invocation does not announce it twice.
  const grouping = groupingFailureOf(outcome, parsed.data);
  if (grouping && device.floorId)
    await publishGroupingFailure(
      { publisher: deps.live, logger: deps.logger },
      { orgId, floorId: device.floorId, devID: device.devId, kind: grouping },
    );
  return settled;
}
