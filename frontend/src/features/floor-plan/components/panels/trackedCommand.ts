import {
  type CommandSentAnswer,
  type CommandView,
  type ControlValue,
  DEVICE_REPLY_TIMEOUT_MS,
  type DeviceStateAnswer,
  type DeviceView,
  isPending,
  type LatestValues,
  latestTimeOf,
  onDeviceClock,
} from '@argentum/contracts';

/**
 * One control's tracked command, as its panel shows it: idle, sending (the call is on its way),
 * pending (sent; waiting for the device's word), settled (the platform's CommandView with its text) or
 * refused (the call itself failed: its text is the server's, e.g. 403 'User is unAuthorized' or 502
 * 'Something went wrong', or the generic one when no answer came). Pure, so the rules are unit-tested
 * without a browser.
 */
export type TrackedState =
  | { phase: 'idle' }
  | { phase: 'sending'; requested: ControlValue; seq: number }
  | { phase: 'pending'; requested: ControlValue; commandId: string; deadlineAt: string }
  | { phase: 'settled'; requested: ControlValue; view: CommandView }
  | { phase: 'refused'; requested: ControlValue; text: string };

export type TrackedEvent =
  /** `seq` numbers the sends: only the answer of the latest one counts. */
  | { type: 'send'; value: ControlValue; seq: number }
  | { type: 'sent'; answer: CommandSentAnswer; seq: number }
  | { type: 'status'; view: CommandView }
  | { type: 'refused'; seq: number; text: string };

export const idleCommand: TrackedState = { phase: 'idle' };

export function trackedReducer(state: TrackedState, event: TrackedEvent): TrackedState {
  switch (event.type) {
    case 'send':
      return { phase: 'sending', requested: event.value, seq: event.seq };
    case 'sent':
      // Only the answer of the call in flight counts (a newer send replaced it otherwise).
      if (state.phase !== 'sending' || state.seq !== event.seq) return state;
      return {
        phase: 'pending',
        requested: state.requested,
        commandId: event.answer.commandId,
        deadlineAt: event.answer.deadlineAt,
      };
    case 'status':
      // Only the awaited command settles the control; a pending word (late, or out of order) never
      // does, and once settled the control keeps the settled word, unless a timed-out command is
      // confirmed late: the device did act, and its value is the one to show.
      if (state.phase === 'settled' && isConfirmedLate(state.view, event.view)) {
        return { phase: 'settled', requested: state.requested, view: event.view };
      }
      if (state.phase !== 'pending' || state.commandId !== event.view.commandId) return state;
      if (isPending(event.view.status)) return state;
      return { phase: 'settled', requested: state.requested, view: event.view };
    case 'refused':
      return state.phase === 'sending' && state.seq === event.seq
        ? { phase: 'refused', requested: state.requested, text: event.text }
        : state;
  }
}

/** A later word on a timed-out command: its device's success after the deadline. */
const isConfirmedLate = (known: CommandView, view: CommandView) =>
  known.commandId === view.commandId && known.status === 'timed out' && view.status === 'confirmed late';

/**
 * The command the panel waits for, if any: a pending one, or one that timed out (its device may still
 * confirm it late).
 */
export function awaitedCommand(state: TrackedState): string | null {
  if (state.phase === 'pending') return state.commandId;
  if (state.phase === 'settled' && state.view.status === 'timed out') return state.view.commandId;
  return null;
}

/** A device's word on a control's command: the value it confirmed, and when that came (epoch ms). */
export interface Confirmation {
  value: ControlValue;
  at: number;
}

/**
 * What a settled command leaves on its device: its word, else what was asked, with the time of that
 * word (else of the request); none on failure.
 */
function confirmationOf(view: CommandView): Confirmation | undefined {
  if (view.status !== 'confirmed' && view.status !== 'confirmed late') return undefined;
  const reply = view.status === 'confirmed' ? view.reply : view.lateReply;
  const value = reply?.val ?? view.val;
  if (value === undefined) return undefined;
  const at = Date.parse(reply?.at ?? view.requestedAt);
  return { value, at: Number.isFinite(at) ? at : 0 };
}

/**
 * The device's value as a control shows it: the newest word the panel has on it. That is the server's
 * answer on the port (`read`, its value as of `reportedAt`) or the control's confirmation of its last
 * command, whichever came later, unless the device reported a value of the control's point since (its
 * own time, `latestTimeOf`: a reading after another user's command, a change made at the device, the
 * position a shade reached after 'Slide Up'; a newer reading of another point changes nothing). All on
 * the device's clock, where its readings and the server's answer are: a confirmation's broker time is
 * put there (`onDeviceClock`), so a device whose clock runs ahead or behind is ordered alike.
 */
export function reportedValue(
  confirmation: Confirmation | undefined,
  device: LatestValues & Pick<DeviceView, 'clockOffset'>,
  point: string,
  read?: Pick<DeviceStateAnswer, 'val' | 'reportedAt'>,
): ControlValue | undefined {
  const readAt = read?.reportedAt === undefined ? Number.NaN : Date.parse(read.reportedAt);
  const answered =
    read?.val !== undefined ? { value: read.val, at: Number.isFinite(readAt) ? readAt : 0 } : undefined;
  const confirmed = confirmation && { ...confirmation, at: onDeviceClock(device, confirmation.at) };
  const known = answered && (!confirmed || confirmed.at < answered.at) ? answered : confirmed;
  if (!known) return device.latest?.[point];
  return newerOf(known.value, known.at, device, point);
}

/**
 * A value a panel learned at `at` (epoch ms: a confirmation, its read of a vendor's cloud), unless the
 * device reported a newer one of `point` since.
 */
export function newerOf<T>(value: T, at: number, device: LatestValues, point: string): T | number {
  const live = device.latest?.[point];
  const liveAt = latestTimeOf(device, point);
  return live === undefined || liveAt === undefined || liveAt <= at ? value : live;
}

/** How long after the call's answer the device's history is read if no word arrived: deadline + 1 s. */
export const HISTORY_FALLBACK_GRACE_MS = 1000;
/** Further reads (a clock ahead of the server's) come this much later, at most this many times. */
export const HISTORY_RETRY_MS = 1500;
export const HISTORY_MAX_READS = 5;

/** Milliseconds from `now` until the history is read for a command with this deadline. */
export function fallbackDelay(deadlineAt: string, now: number): number {
  const deadline = Date.parse(deadlineAt);
  const at = Number.isFinite(deadline) ? deadline : now + DEVICE_REPLY_TIMEOUT_MS;
  return Math.max(0, at + HISTORY_FALLBACK_GRACE_MS - now);
}

/** Whether the control waits (spinner, 'Sending…'). */
export const isBusy = (state: TrackedState) => state.phase === 'sending' || state.phase === 'pending';

/** A control: its current command, and the device's last confirmation (kept across commands). */
export interface ControlState {
  command: TrackedState;
  confirmed?: Confirmation;
}

export const idleControl: ControlState = { command: idleCommand };

export function controlReducer(state: ControlState, event: TrackedEvent): ControlState {
  const command = trackedReducer(state.command, event);
  if (command === state.command) return state;
  const confirmed =
    (command.phase === 'settled' ? confirmationOf(command.view) : undefined) ?? state.confirmed;
  return confirmed === undefined ? { command } : { command, confirmed };
}
