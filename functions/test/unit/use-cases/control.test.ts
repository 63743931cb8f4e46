import { describe, expect, it } from 'vitest';
import {
  brightnessValueText,
  DEVICE_REPLY_TIMEOUT_MS,
  NO_DEVICE_FOUND_TEXT,
  SOMETHING_WENT_WRONG_TEXT,
} from '@argentum/contracts';
import {
  commandHistory,
  type ControlPorts,
  deviceState,
  sendCommand,
} from '../../../src/domain/control/commands';
import { handleConfirmation } from '../../../src/domain/control/confirmations';
import type { ControlDevice } from '../../../src/domain/control/ports';
import { DomainError } from '../../../src/domain/errors';
import type { AuthUser } from '../../../src/domain/users/user';
import {
  memoryCommandStore,
  recordingLogger,
  recordingMetrics,
  testClock,
} from '../../support/fakes/memory-stores';

const light: ControlDevice = {
  devID: 'AA:01',
  orgID: 'org-a',
  devName: 'Office light',
  devType: 1,
  connDev: 'light',
  dataPoints: [{ dp: 'bri' }],
};
const foreign: ControlDevice = { ...light, devID: 'BB:01', orgID: 'org-b' };
const roomUnit: ControlDevice = {
  devID: 'AA:02',
  orgID: 'org-a',
  devName: 'Room unit',
  devType: 2,
  connDev: 'valve',
  dataPoints: [{ dp: 'temp', readonly: true }, { dp: 'fan' }, { dp: 'valve' }, { dp: 'zone' }],
};
const user = (role: 0 | 1 | 2 | 3): AuthUser => ({
  userId: 'u1',
  userName: 'Ada',
  email: 'ada@example.com',
  orgRoles: { 'org-a': role },
  version: 1,
});

/** The control use cases on in-memory fakes: no emulator, milliseconds a test. */
function scene(devices: ControlDevice[] = [light, foreign]) {
  const published: { topic: string; message: Record<string, unknown> }[] = [];
  let publishing: Error | undefined;
  const ports = {
    devices: { get: async (devId: string) => devices.find((d) => d.devID === devId) },
    commands: memoryCommandStore(),
    publisher: {
      publish: async (topic: string, message: object) => {
        if (publishing) throw publishing;
        published.push({ topic, message: { ...message } });
      },
    },
    clock: testClock(),
    logger: recordingLogger(),
    metrics: recordingMetrics(),
  } satisfies ControlPorts;
  return { ports, published, failPublishing: (error: Error) => (publishing = error) };
}

const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return { kind: (error as DomainError).kind, message: (error as DomainError).message };
};

describe('control commands (use cases on fakes)', () => {
  it("records a member's command, publishes it on the device's topic and answers it sent with its deadline", async () => {
    const { ports, published } = scene();
    const answer = await sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 60 });
    const now = ports.clock.now().getTime();
    expect(answer).toEqual({
      commandId: expect.any(String),
      status: 'sent',
      deadlineAt: new Date(now + DEVICE_REPLY_TIMEOUT_MS).toISOString(),
    });
    expect(published).toEqual([
      {
        topic: 'org-a/controldata/AA:01',
        message: expect.objectContaining({ commandId: answer.commandId, devID: light.devID, val: 60 }),
      },
    ]);
    expect(await ports.commands.get(light.devID, answer.commandId)).toMatchObject({
      status: 'sent',
      requestedBy: { userId: 'u1', userName: 'Ada' },
    });
    expect(ports.metrics.counts.get('Sent')).toBe(1);
  });

  it("answers another organization's device exactly like an unknown one, recording and sending nothing", async () => {
    const { ports, published } = scene();
    const request = { call: 'setBrightness', val: 60 } as const;
    const unknown = await rejection(sendCommand(ports, user(3), { ...request, devID: 'ZZ:99' }));
    const other = await rejection(sendCommand(ports, user(3), { ...request, devID: foreign.devID }));
    expect(other).toEqual(unknown);
    expect(other).toEqual({ kind: 'not-found', message: NO_DEVICE_FOUND_TEXT });
    expect(await ports.commands.recent(foreign.devID, 10)).toEqual([]);
    expect(published).toEqual([]);
  });

  it('refuses a read-only member (403) and a value the device does not take (400) before recording', async () => {
    const { ports, published } = scene();
    expect(
      (await rejection(sendCommand(ports, user(0), { call: 'setBrightness', devID: light.devID, val: 60 })))
        .kind,
    ).toBe('forbidden');
    expect(
      await rejection(sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 101 })),
    ).toEqual({ kind: 'validation', message: brightnessValueText });
    expect(await ports.commands.recent(light.devID, 10)).toEqual([]);
    expect(published).toEqual([]);
  });

  it('answers a device presence knows offline at once, as its history records it, sending nothing', async () => {
    const { ports, published } = scene([{ ...light, online: false }]);
    const answer = await sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 60 });
    expect(answer.status).toBe('failed');
    expect(answer.command?.text).toBe('Device Offline');
    expect(published).toEqual([]);
    expect(ports.metrics.counts.get('RefusedOffline')).toBe(1);
  });

  it('records a command that could not be published as failed and answers the documented text', async () => {
    const { ports, failPublishing } = scene();
    failPublishing(new Error('IoT is down'));
    expect(
      await rejection(sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 60 })),
    ).toEqual({ kind: 'upstream', message: SOMETHING_WENT_WRONG_TEXT });
    const [recorded] = await ports.commands.recent(light.devID, 1);
    expect(recorded).toMatchObject({ status: 'failed', reply: { action: 'not sent' } });
    expect(ports.metrics.counts.get('NotSent')).toBe(1);
  });

  it('reads a command without a word past its deadline as timed out, and records (counts) it so once', async () => {
    const { ports } = scene();
    const { commandId } = await sendCommand(ports, user(1), {
      call: 'setBrightness',
      devID: light.devID,
      val: 60,
    });
    expect((await commandHistory(ports, user(0), light.devID, 10)).commands[0]?.status).toBe('sent');
    ports.clock.advance(DEVICE_REPLY_TIMEOUT_MS + 1);
    const history = await commandHistory(ports, user(0), light.devID, 10);
    expect(history.commands).toMatchObject([
      { commandId, status: 'timed out', text: SOMETHING_WENT_WRONG_TEXT },
    ]);
    await commandHistory(ports, user(0), light.devID, 10);
    expect((await ports.commands.get(light.devID, commandId))?.status).toBe('timed out');
    expect(ports.metrics.counts.get('TimedOut')).toBe(1);
  });

  it("settles a command with the device's word once: in time, a redelivery, and a late word", async () => {
    const { ports } = scene();
    const sent = await sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 60 });
    const word = (commandId: string) => ({
      orgId: 'org-a',
      outcome: 'success' as const,
      clientId: light.devID,
      message: { action: 'success', val: 60, devID: light.devID, commandId },
    });
    // Another device cannot speak for this one.
    expect(await handleConfirmation(ports, { ...word(sent.commandId), clientId: 'CC:01' })).toBe('unknown');
    expect(await handleConfirmation(ports, word(sent.commandId))).toBe('confirmed');
    // The same word again (the broker's time is the same): its handling failed after the reply was
    // recorded and is retried, so what follows runs again; counted once.
    expect(await handleConfirmation(ports, word(sent.commandId))).toBe('confirmed');
    expect(ports.metrics.counts.get('Confirmed')).toBe(1);
    // Another word for a settled command changes nothing.
    ports.clock.advance(1_000);
    expect(await handleConfirmation(ports, { ...word(sent.commandId), outcome: 'fail' as const })).toBe(
      'duplicate',
    );
    expect((await ports.commands.get(light.devID, sent.commandId))?.status).toBe('confirmed');

    const late = await sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 60 });
    ports.clock.advance(DEVICE_REPLY_TIMEOUT_MS + 1);
    expect(await handleConfirmation(ports, word(late.commandId))).toBe('late');
    expect((await ports.commands.get(light.devID, late.commandId))?.status).toBe('confirmed late');
    expect(ports.metrics.counts.get('ConfirmedLate')).toBe(1);
  });

  it('settles a command by a word received in time even when its timeout was recorded before the word was handled', async () => {
    const { ports } = scene();
    const sent = await sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 60 });
    const receivedAt = ports.clock.now().getTime() + 1_000;
    // The word reaches the broker in time; its handling starts after the deadline (a cold start), by
    // when the panel's history read has recorded the command timed out.
    ports.clock.advance(DEVICE_REPLY_TIMEOUT_MS + 2_000);
    await commandHistory(ports, user(0), light.devID, 10);
    expect((await ports.commands.get(light.devID, sent.commandId))?.status).toBe('timed out');
    const word = {
      orgId: 'org-a',
      outcome: 'success' as const,
      clientId: light.devID,
      receivedAt,
      message: { action: 'success', val: 60, devID: light.devID, commandId: sent.commandId },
    };
    expect(await handleConfirmation(ports, word)).toBe('confirmed');
    expect((await ports.commands.get(light.devID, sent.commandId))?.status).toBe('confirmed');
  });

  it("stores a port's state when a confirmation is retried after its handling failed past the reply", async () => {
    const { ports, published } = scene();
    const sent = await sendCommand(ports, user(1), { call: 'setBrightness', devID: light.devID, val: 60 });
    const recordState = ports.commands.recordState.bind(ports.commands);
    let throttled = true;
    ports.commands.recordState = async (state) => {
      if (throttled) {
        throttled = false;
        throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      }
      return recordState(state);
    };
    const word = {
      orgId: 'org-a',
      outcome: 'success' as const,
      clientId: light.devID,
      receivedAt: ports.clock.now().getTime(),
      message: { action: 'success', val: 60, devID: light.devID, commandId: sent.commandId },
    };
    await expect(handleConfirmation(ports, word)).rejects.toThrow('Rate exceeded');
    const statusPushes = () => published.filter((p) => p.topic.startsWith('org-a/commandstatus/')).length;
    const before = statusPushes();
    // IoT Core invokes the function again with the same word.
    expect(await handleConfirmation(ports, word)).toBe('confirmed');
    expect(await ports.commands.reportedState(light.devID, '-')).toMatchObject({ val: 60 });
    expect(statusPushes()).toBe(before + 1);
    expect(ports.metrics.counts.get('Confirmed')).toBe(1);
  });

  it("answers a port's confirmed value until its own point's telemetry, newer, says otherwise", async () => {
    const unit: ControlDevice = { ...roomUnit };
    const { ports } = scene([unit]);
    const state = (port: number) => deviceState(ports, user(0), 'getFanValveValue', unit.devID, port);
    // Telemetry of the valve only: the fan's port has no value yet.
    Object.assign(unit, { latest: { valve: 1 }, lastSeen: ports.clock.now().getTime() });
    expect(await state(0)).toMatchObject({ source: 'none', latest: { valve: 1 } });
    expect(await state(1)).toMatchObject({ source: 'telemetry', val: 1 });

    ports.clock.advance(1_000);
    const sent = await sendCommand(ports, user(1), {
      call: 'setFanValveValue',
      devID: unit.devID,
      port: 0,
      val: 7,
    });
    const confirmedAt = ports.clock.now().getTime();
    await handleConfirmation(ports, {
      orgId: 'org-a',
      outcome: 'success',
      clientId: unit.devID,
      receivedAt: confirmedAt,
      message: { action: 'success', val: 7, devID: unit.devID, commandId: sent.commandId },
    });
    const confirmed = { source: 'device', val: 7, reportedAt: new Date(confirmedAt).toISOString() };
    expect(await state(0)).toMatchObject(confirmed);
    // Newer readings: the confirmed fan value itself, then the valve's alone (the device's time moves).
    ports.clock.advance(1_000);
    Object.assign(unit, { latest: { valve: 4.5, fan: 7 }, lastSeen: ports.clock.now().getTime() });
    expect(await state(0)).toMatchObject(confirmed);
    // The device's time is newer, but the fan's own reading (5) is older than the confirmation.
    Object.assign(unit, {
      latest: { valve: 4.5, fan: 5 },
      latestAt: { valve: ports.clock.now().getTime(), fan: confirmedAt - 1 },
    });
    expect(await state(0)).toMatchObject(confirmed);
    Object.assign(unit, { latestAt: undefined });
    // The fan turned by hand: its telemetry, newer, says 5.
    ports.clock.advance(1_000);
    Object.assign(unit, { latest: { valve: 4.5, fan: 5 }, lastSeen: ports.clock.now().getTime() });
    expect(await state(0)).toMatchObject({
      source: 'telemetry',
      val: 5,
      reportedAt: ports.clock.now().toISOString(),
    });
    // A reading older than the confirmation says nothing against it.
    Object.assign(unit, { lastSeen: confirmedAt - 1 });
    expect(await state(0)).toMatchObject(confirmed);
  });
});
