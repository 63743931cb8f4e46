import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { type CommandView, DEVICE_REPLY_TIMEOUT_MS, lockedText } from '@argentum/contracts';
import { applyCommandStatus, commandKey } from '../../api/commands';
import {
  awaitedCommand,
  controlReducer,
  idleControl,
  fallbackDelay,
  HISTORY_FALLBACK_GRACE_MS,
  idleCommand,
  isBusy,
  newerOf,
  reportedValue,
  type TrackedEvent,
  type TrackedState,
  trackedReducer,
} from './trackedCommand';

const view = (
  commandId: string,
  status: CommandView['status'],
  extra: Partial<CommandView> = {},
): CommandView => ({
  commandId,
  devID: 'AA:01',
  devName: 'LockA',
  devType: 3,
  call: 'setFanValveValue',
  cmnd: 54,
  val: [1, 0, 0, 0],
  requestedBy: { userId: 'u1', userName: 'Erin' },
  requestedAt: '2026-01-01T00:00:00.000Z',
  deadlineAt: '2026-01-01T00:00:05.000Z',
  status,
  ...extra,
});
const answer = (commandId: string) => ({
  commandId,
  status: 'sent' as const,
  deadlineAt: '2026-01-01T00:00:05.000Z',
});
const run = (events: TrackedEvent[], from: TrackedState = idleCommand) => events.reduce(trackedReducer, from);

describe('a tracked command', () => {
  it('is pending from the send until its settled word, then shows it', () => {
    const sending = run([{ type: 'send', value: [1, 0, 0, 0], seq: 1 }]);
    expect(sending).toEqual({ phase: 'sending', requested: [1, 0, 0, 0], seq: 1 });
    expect(isBusy(sending)).toBe(true);
    const pending = trackedReducer(sending, { type: 'sent', answer: answer('c1'), seq: 1 });
    expect(pending).toEqual({
      phase: 'pending',
      requested: [1, 0, 0, 0],
      commandId: 'c1',
      deadlineAt: '2026-01-01T00:00:05.000Z',
    });
    expect(awaitedCommand(pending)).toBe('c1');
    // The same command still pending (e.g. 'sent' on the channel) changes nothing.
    expect(trackedReducer(pending, { type: 'status', view: view('c1', 'sent') })).toBe(pending);
    const confirmed = view('c1', 'confirmed', { text: lockedText('LockA') });
    const settled = trackedReducer(pending, { type: 'status', view: confirmed });
    expect(settled).toEqual({ phase: 'settled', requested: [1, 0, 0, 0], view: confirmed });
    expect(isBusy(settled)).toBe(false);
    expect(awaitedCommand(settled)).toBeNull();
  });

  it('ignores a late pending word, a second settled word and other commands', () => {
    const pending = run([
      { type: 'send', value: 7, seq: 1 },
      { type: 'sent', answer: answer('c1'), seq: 1 },
    ]);
    expect(trackedReducer(pending, { type: 'status', view: view('other', 'confirmed') })).toBe(pending);
    const failed = trackedReducer(pending, { type: 'status', view: view('c1', 'failed') });
    expect(failed.phase).toBe('settled');
    expect(trackedReducer(failed, { type: 'status', view: view('c1', 'sent') })).toBe(failed);
    expect(trackedReducer(failed, { type: 'status', view: view('c1', 'confirmed') })).toBe(failed);
  });

  it("keeps only the latest send's answer; a refused call ends the wait", () => {
    const second = run([
      { type: 'send', value: 3, seq: 1 },
      { type: 'send', value: 4, seq: 2 },
      { type: 'sent', answer: answer('old'), seq: 1 },
    ]);
    expect(second).toEqual({ phase: 'sending', requested: 4, seq: 2 });
    const text = 'User is unAuthorized';
    expect(trackedReducer(second, { type: 'refused', seq: 1, text })).toBe(second);
    expect(trackedReducer(second, { type: 'refused', seq: 2, text })).toEqual({
      phase: 'refused',
      requested: 4,
      text,
    });
  });

  it('reads the history one second after the deadline (at once when it has passed)', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    expect(fallbackDelay('2026-01-01T00:00:05.000Z', now)).toBe(5000 + HISTORY_FALLBACK_GRACE_MS);
    expect(fallbackDelay('2026-01-01T00:00:05.000Z', now + 9000)).toBe(0);
    expect(fallbackDelay('not a date', now)).toBe(DEVICE_REPLY_TIMEOUT_MS + HISTORY_FALLBACK_GRACE_MS);
  });

  it('in the cache: a settled view is not replaced by an older pending one (history fallback vs channel)', () => {
    const queryClient = new QueryClient();
    applyCommandStatus(queryClient, view('c1', 'timed out', { text: 'Something went wrong' }));
    applyCommandStatus(queryClient, view('c1', 'sent'));
    expect(queryClient.getQueryData<CommandView>(commandKey('c1'))?.status).toBe('timed out');
    const state = run([
      { type: 'send', value: 1, seq: 1 },
      { type: 'sent', answer: answer('c1'), seq: 1 },
      { type: 'status', view: queryClient.getQueryData<CommandView>(commandKey('c1')) as CommandView },
    ]);
    expect(state.phase === 'settled' && state.view.text).toBe('Something went wrong');
  });

  it('keeps the value the device confirmed last across a failed command', () => {
    const events = (id: string, value: number, status: CommandView['status']): TrackedEvent[] => [
      { type: 'send', value, seq: 1 },
      { type: 'sent', answer: answer(id), seq: 1 },
      {
        type: 'status',
        view: view(id, status, {
          val: value,
          reply: { outcome: 'success', action: 'success', val: value, at: '2026-01-01T00:00:01.000Z' },
        }),
      },
    ];
    const first = [...events('c1', 50, 'confirmed')].reduce(controlReducer, idleControl);
    expect(first.confirmed).toEqual({ value: 50, at: Date.parse('2026-01-01T00:00:01.000Z') });
    const second = events('c2', 20, 'failed').reduce(controlReducer, first);
    expect(second.command.phase).toBe('settled');
    expect(second.confirmed).toBe(first.confirmed);
  });

  it('shows the confirmation until the device reports a value of its own after it', () => {
    const confirmed = [
      { type: 'send', value: [1, 1, 1, 1], seq: 1 },
      { type: 'sent', answer: answer('c1'), seq: 1 },
      {
        type: 'status',
        view: view('c1', 'confirmed', {
          val: [1, 1, 1, 1],
          reply: { outcome: 'success', action: 'success', at: '2026-01-01T00:00:02.000Z' },
        }),
      },
    ] satisfies TrackedEvent[];
    const { confirmed: confirmation } = confirmed.reduce(controlReducer, idleControl);
    const at = Date.parse('2026-01-01T00:00:02.000Z');
    // The reply carried no value: what was asked, at the reply's time.
    expect(confirmation).toEqual({ value: [1, 1, 1, 1], at });
    // A reading of the point from before the reply (or at its instant) does not override it; a later one does.
    const read = (bri: number | undefined, briAt: number | undefined, lastSeen = briAt) => ({
      ...(bri !== undefined ? { latest: { bri } } : {}),
      ...(briAt !== undefined ? { latestAt: { bri: briAt } } : {}),
      ...(lastSeen !== undefined ? { lastSeen } : {}),
    });
    expect(reportedValue(confirmation, read(0, at - 500), 'bri')).toEqual([1, 1, 1, 1]);
    expect(reportedValue(confirmation, read(0, at), 'bri')).toEqual([1, 1, 1, 1]);
    expect(reportedValue(confirmation, read(100, at + 1500), 'bri')).toBe(100);
    // A later reading of another point (the device's time moved, the point's did not): the confirmation.
    expect(reportedValue(confirmation, read(0, at - 500, at + 1500), 'bri')).toEqual([1, 1, 1, 1]);
    // A value stored before points had their own times is as old as the device's newest reading.
    expect(reportedValue(confirmation, { latest: { bri: 100 }, lastSeen: at + 1500 }, 'bri')).toBe(100);
    expect(reportedValue(confirmation, { latest: { bri: 100 }, lastSeen: at - 1 }, 'bri')).toEqual([
      1, 1, 1, 1,
    ]);
    // No reading, or a reading without a time: the confirmation. No confirmation: the reading.
    expect(reportedValue(confirmation, read(undefined, at + 1500), 'bri')).toEqual([1, 1, 1, 1]);
    expect(reportedValue(confirmation, { latest: { bri: 100 } }, 'bri')).toEqual([1, 1, 1, 1]);
    expect(reportedValue(undefined, read(40, at), 'bri')).toBe(40);
    expect(reportedValue(undefined, {}, 'bri')).toBeUndefined();
    // The server's answer on the port counts as of its time: a confirmation after it wins, one before
    // it does not; a reading of the point after both wins over both.
    const iso = (t: number) => new Date(t).toISOString();
    const lockedBefore = { val: [1, 0, 0, 0], reportedAt: iso(at - 1000) };
    const lockedAfter = { val: [1, 0, 0, 0], reportedAt: iso(at + 1000) };
    expect(reportedValue(confirmation, read(0, at - 2000), 'bri', lockedBefore)).toEqual([1, 1, 1, 1]);
    expect(reportedValue(confirmation, read(0, at - 2000), 'bri', lockedAfter)).toEqual([1, 0, 0, 0]);
    expect(reportedValue(undefined, read(0, at - 2000), 'bri', lockedBefore)).toEqual([1, 0, 0, 0]);
    expect(reportedValue(confirmation, read(1, at + 2000), 'bri', lockedAfter)).toBe(1);
    expect(reportedValue(undefined, read(1, at - 1000), 'bri', lockedBefore)).toEqual([1, 0, 0, 0]);
    expect(reportedValue(undefined, read(7, at), 'bri', {})).toBe(7);
    // A device whose clock runs two minutes ahead (or behind): the confirmation's broker time is put on
    // its clock, where its readings and the server's answer are.
    const ahead = (bri: number, briAt: number) => ({ ...read(bri, briAt), clockOffset: 120_000 });
    expect(reportedValue(confirmation, ahead(0, at + 119_000), 'bri')).toEqual([1, 1, 1, 1]);
    expect(reportedValue(confirmation, ahead(0, at + 121_000), 'bri')).toBe(0);
    const lockedAhead = { val: [1, 0, 0, 0], reportedAt: iso(at + 119_000) };
    expect(reportedValue(confirmation, ahead(0, at + 100_000), 'bri', lockedAhead)).toEqual([1, 1, 1, 1]);
    const behind = (bri: number, briAt: number) => ({ ...read(bri, briAt), clockOffset: -120_000 });
    expect(reportedValue(confirmation, behind(0, at - 119_000), 'bri')).toBe(0);
    expect(reportedValue(confirmation, behind(0, at - 121_000), 'bri')).toEqual([1, 1, 1, 1]);
    // A panel's read of a vendor's cloud (a thermostat that reported no humidity): a later reading wins.
    const humidity = (at: number) => ({ latest: { hum: 57 }, latestAt: { hum: at }, lastSeen: at });
    expect(newerOf(null, at, humidity(at + 1), 'hum')).toBe(57);
    expect(newerOf(null, at, humidity(at), 'hum')).toBeNull();
    expect(newerOf(21.5, at, {}, 'temp')).toBe(21.5);
  });

  it("a timed-out command stays awaited: the device's late success shows, with the device's value", () => {
    const timedOut = view('c1', 'timed out', { val: 40, text: 'Something went wrong' });
    const late = view('c1', 'confirmed late', {
      val: 40,
      lateReply: { outcome: 'success', action: 'success', val: 35, at: '2026-01-01T00:00:09.000Z' },
      text: 'Value set to 35 successfully. (confirmed late)',
    });
    const events: TrackedEvent[] = [
      { type: 'send', value: 40, seq: 1 },
      { type: 'sent', answer: answer('c1'), seq: 1 },
      { type: 'status', view: timedOut },
    ];
    const earlier = { value: 20, at: Date.parse('2026-01-01T00:00:00.000Z') };
    const before = events.reduce(controlReducer, { command: idleCommand, confirmed: earlier });
    expect(before.command).toEqual({ phase: 'settled', requested: 40, view: timedOut });
    expect(before.confirmed).toBe(earlier);
    expect(awaitedCommand(before.command)).toBe('c1');
    const after = controlReducer(before, { type: 'status', view: late });
    expect(after.command).toEqual({ phase: 'settled', requested: 40, view: late });
    expect(after.confirmed).toEqual({ value: 35, at: Date.parse('2026-01-01T00:00:09.000Z') });
    expect(awaitedCommand(after.command)).toBeNull();
    // Another command's late word, or a late word on a failed command, changes nothing.
    expect(controlReducer(before, { type: 'status', view: { ...late, commandId: 'c2' } })).toBe(before);
    const failed = controlReducer(before, { type: 'status', view: view('c1', 'failed') });
    expect(failed).toBe(before);
    // In the cache, a history read that still says timed out does not undo it.
    const queryClient = new QueryClient();
    applyCommandStatus(queryClient, late);
    applyCommandStatus(queryClient, timedOut);
    expect(queryClient.getQueryData<CommandView>(commandKey('c1'))?.status).toBe('confirmed late');
  });
});
