import { type CommandReply, type ControlValue, isPending } from '@argentum/contracts';
import { type ConfirmationOutcome, confirmationMessageSchema, topics } from '@argentum/contracts/messaging';
import type { Clock, Logger, Metrics } from '../ports';
import { portKey, toCommandView } from './commands';
import type { CommandRecord, CommandStore, MessagePublisher } from './ports';

export interface ConfirmationPorts {
  commands: CommandStore;
  publisher: MessagePublisher;
  clock: Clock;
  logger: Logger;
  /** Commands by outcome (namespace Argentum/Commands): Confirmed, Failed, ConfirmedLate, TimedOut. */
  metrics: Metrics;
}

/** A message a device published on `{orgId}/controldata/success|fail`, as the IoT rule delivers it. */
export interface ConfirmationDelivery {
  orgId: string;
  outcome: ConfirmationOutcome;
  /** The publishing connection's client id (IoT SQL clientid()): the device's thing name. */
  clientId: string | undefined;
  message: unknown;
  /** When the broker received it (epoch ms; IoT SQL timestamp()); the handler's clock when absent. */
  receivedAt?: number;
}

/**
 * What became of a delivery: the command confirmed or failed in time; a word after the timeout
 * ('late'); a redelivery or a second word ('duplicate'); no such command of this organization's
 * device, or a message naming another device than its sender ('unknown'); a device's own news without a command id ('untracked'); not a confirmation.
 */
export type ConfirmationResult =
  'confirmed' | 'failed' | 'late' | 'duplicate' | 'unknown' | 'untracked' | 'invalid';

/**
 * What became of a delivery and, when the device confirmed a value (in time or late), that value: the
 * device's reported state of the command's port since `at`.
 */
export interface SettledConfirmation {
  result: ConfirmationResult;
  state?: { command: CommandRecord; val: ControlValue; at: number };
  /**
   * The same word handled again (a retry after a later step failed, or a redelivery): its stored
   * effects are made again, each conditioned, and nothing is announced twice (its command status is
   * published again: a browser's never moves back).
   */
  repeated?: true;
}

/**
 * Settles a command with its device's word. Idempotent: every write is conditioned on the command's
 * state, so a redelivered confirmation (or a retry after a later step failed) changes nothing
 * recorded, and its other effects are made again (`repeated`). A word within the
 * deadline confirms or fails the command; after it, a success makes it 'confirmed late' (the device
 * did act, and its value is shown) and a failure leaves it timed out, the word kept as `lateReply`
 * either way. A success is also the device's reported state of the port, late or not. The settled command is published on `{orgId}/commandstatus/{userId}` for the browsers of the user who asked.
 */
export async function settleConfirmation(
  deps: ConfirmationPorts,
  delivery: ConfirmationDelivery,
): Promise<SettledConfirmation> {
  const parsed = confirmationMessageSchema.safeParse(delivery.message);
  if (!parsed.success) return { result: 'invalid' };
  const message = parsed.data;
  // A device speaks only for itself: another device's command or news is answered like an unknown one.
  if (message.devID !== delivery.clientId) return { result: 'unknown' };
  if (message.commandId === undefined) return { result: 'untracked' };
  const record = await deps.commands.get(message.devID, message.commandId);
  // A device can only confirm its own organization's commands.
  if (!record || record.orgID !== delivery.orgId) return { result: 'unknown' };

  const now = deps.clock.now().getTime();
  const receivedAt =
    delivery.receivedAt !== undefined && Number.isFinite(delivery.receivedAt) && delivery.receivedAt <= now
      ? delivery.receivedAt
      : now;
  const reply: CommandReply = {
    outcome: delivery.outcome,
    action: message.action,
    ...(message.val !== undefined ? { val: message.val } : {}),
    ...(message.str !== undefined ? { str: message.str } : {}),
    at: new Date(receivedAt).toISOString(),
  };

  let result: ConfirmationResult;
  let repeated = false;
  // In time or not is decided by when the broker received the word: a command read as timed out (the
  // history records a timeout once its deadline has passed) before a word of its time was handled is
  // still settled by it.
  const unanswered = record.reply === undefined && record.lateReply === undefined;
  const inTime =
    receivedAt <= record.deadlineAt &&
    (isPending(record.status) || (record.status === 'timed out' && unanswered));
  if (
    inTime &&
    (await deps.commands.recordReply(record.devID, record.commandId, reply, receivedAt, 'in time'))
  ) {
    result = delivery.outcome === 'success' ? 'confirmed' : 'failed';
    deps.metrics.count(result === 'confirmed' ? 'Confirmed' : 'Failed', 1);
  } else if (
    !inTime &&
    (await deps.commands.recordReply(record.devID, record.commandId, reply, receivedAt, 'late'))
  ) {
    result = 'late';
    // A late failure leaves the command timed out: counted so unless it was recorded timed out already.
    if (delivery.outcome === 'success') deps.metrics.count('ConfirmedLate', 1);
    else if (isPending(record.status)) deps.metrics.count('TimedOut', 1);
  } else {
    // This very word (the same broker time) recorded already: the handling of it failed after that
    // and is being retried, so the rest (the port's state, and what the caller does with the result)
    // runs again; each of those writes is conditioned, and nothing is counted twice.
    const same = (recorded: CommandReply | undefined) =>
      recorded?.at === reply.at && recorded.outcome === reply.outcome;
    if (same(record.reply)) result = delivery.outcome === 'success' ? 'confirmed' : 'failed';
    else if (same(record.lateReply)) result = 'late';
    else return { result: 'duplicate' };
    repeated = true;
  }

  const val = message.val ?? record.val;
  const reported = delivery.outcome === 'success' && record.call !== 'testDevice' && val !== undefined;
  if (reported) {
    await deps.commands.recordState({
      devID: record.devID,
      port: portKey(record.port),
      val,
      reportedAt: receivedAt,
      commandId: record.commandId,
    });
  }

  const settled =
    result === 'late'
      ? {
          ...record,
          status: delivery.outcome === 'success' ? ('confirmed late' as const) : ('timed out' as const),
          lateReply: reply,
        }
      : { ...record, status: result === 'confirmed' ? ('confirmed' as const) : ('failed' as const), reply };
  // Published again for a repeated word too (the first handling may have failed before it): a
  // browser's command status never moves back, so a repeat shows nothing new.
  try {
    await deps.publisher.publish(topics.commandStatus(record.orgID, record.requestedBy.userId), {
      ...toCommandView(settled, now),
    });
  } catch (error) {
    // The outcome is recorded: the waiting panel reads it from the history at the command's deadline.
    deps.logger.log('warn', 'a command outcome could not be published', {
      commandId: record.commandId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return {
    result,
    ...(reported ? { state: { command: record, val, at: receivedAt } } : {}),
    ...(repeated ? { repeated: true as const } : {}),
  };
}

/** settleConfirmation's outcome alone. */
export const handleConfirmation = async (
  deps: ConfirmationPorts,
  delivery: ConfirmationDelivery,
): Promise<ConfirmationResult> => (await settleConfirmation(deps, delivery)).result;
