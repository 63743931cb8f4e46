import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandSentAnswer, CommandView, ControlValue, DeviceStateAnswer } from '@argentum/contracts';
import {
  DEVICE_OFFLINE_TEXT,
  DEVICE_REPLY_TIMEOUT_MS,
  SOMETHING_WENT_WRONG_TEXT,
  confirmedLateText,
  deviceValueChangeFailedText,
  lockedText,
} from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import { handler as controlConfirmationsHandler } from '../../src/lambda/control-confirmations';
import { dynamoDevices } from '../../src/stores/devices';
import { dynamoCommandStore } from '../../src/stores/commands';
import {
  type ControlScene,
  control,
  controlScene,
  deviceConnection,
  historyOf,
  waitForCommand,
  watchOutcomes,
} from '../support/control';
import { invokedAs } from '../../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const confirmations = invokedAs('control-confirmations', controlConfirmationsHandler);

let scene: ControlScene;
beforeAll(async () => {
  scene = await controlScene();
});
afterAll(async () => {
  await scene.stop();
});

async function send(path: string, body: Record<string, unknown>): Promise<CommandSentAnswer> {
  const sent = await control<CommandSentAnswer>(path, body, scene.editor.token);
  expect(sent.status).toBe(200);
  // A device that answers at once may settle the command before the call has recorded it sent.
  expect(['sent', 'confirmed', 'failed']).toContain(sent.body.status);
  return sent.body;
}

const lockBody = (devID: string, value: number[]) => ({ value, devID, port: 0, devType: 3 });

describe('the 5 s reply timeout', () => {
  it('a command the device never answers is pending, then timed out after 5 s, and recorded so', async () => {
    const { silent } = scene.devices;
    const sent = await send('setFanValveValue', lockBody(silent.devID, [1, 0, 0, 0]));
    const [pending] = await historyOf(scene.editor.token, silent.devID, 1);
    expect(pending).toMatchObject({ commandId: sent.commandId, status: 'sent' });
    expect(pending?.text).toBeUndefined();

    const timedOut = await waitForCommand(
      scene.editor.token,
      silent.devID,
      sent.commandId,
      (c) => c.status !== 'sent',
      DEVICE_REPLY_TIMEOUT_MS + 10_000,
    );
    expect(timedOut).toMatchObject({ status: 'timed out', text: SOMETHING_WENT_WRONG_TEXT });
    expect(timedOut.reply).toBeUndefined();
    // Timed out no earlier than its deadline.
    expect(Date.now()).toBeGreaterThan(Date.parse(sent.deadlineAt));
    // The read recorded it: the stored status is no longer pending.
    expect((await dynamoCommandStore.get(silent.devID, sent.commandId))?.status).toBe('timed out');
  });

  it("testDevice to a device gone silent: 'Device Offline' after 5 s without reply", async () => {
    const { bacnet } = scene.devices;
    // Silent without a word: the platform still holds it online, so only the deadline can tell. (One
    // that announced it went offline is answered 'Device Offline' at once, presence.test.ts.)
    await scene.simulator.setOnline(bacnet.devID, false, { announce: false });
    try {
      const sent = await send('testDevice', { devID: bacnet.devID, devType: 7 });
      const command = await waitForCommand(
        scene.editor.token,
        bacnet.devID,
        sent.commandId,
        (c) => c.status !== 'sent',
        DEVICE_REPLY_TIMEOUT_MS + 10_000,
      );
      expect(command).toMatchObject({ call: 'testDevice', status: 'timed out', text: DEVICE_OFFLINE_TEXT });
    } finally {
      await scene.simulator.setOnline(bacnet.devID, true);
    }
  });
});

describe('a late confirmation', () => {
  it("records the command confirmed late, with the device's value, its text and state", async () => {
    const { lock } = scene.devices;
    scene.simulator.script(lock.devID, 'slow');
    const browser = await watchOutcomes(scene.editor, scene.orgId);
    try {
      const sent = await send('setFanValveValue', lockBody(lock.devID, [1, 0, 0, 0]));
      const command = await waitForCommand(
        scene.editor.token,
        lock.devID,
        sent.commandId,
        (c) => c.lateReply !== undefined,
        DEVICE_REPLY_TIMEOUT_MS + 15_000,
      );
      expect(command).toMatchObject({
        status: 'confirmed late',
        text: confirmedLateText(lockedText(lock.devName)),
        lateReply: { outcome: 'success', action: 'success', val: [1, 0, 0, 0] },
      });
      expect(command.reply).toBeUndefined();
      expect(Date.parse(command.lateReply?.at ?? '')).toBeGreaterThan(Date.parse(command.deadlineAt));
      // The late word is still the device's state.
      const state = await control<DeviceStateAnswer>(
        'getLockValue',
        { devID: lock.devID, devType: 3, port: 0 },
        scene.viewer.token,
      );
      expect(state.body).toMatchObject({
        val: [1, 0, 0, 0],
        source: 'device',
        reportedAt: command.lateReply?.at,
      });
      // The user's browsers are told on their command status topic.
      await expect
        .poll(() => browser.received.find((c) => c.commandId === sent.commandId && c.status !== 'sent'))
        .toMatchObject({ status: 'confirmed late', lateReply: { val: [1, 0, 0, 0] } });
    } finally {
      scene.simulator.script(lock.devID, 'answer');
      await browser.client.endAsync();
    }
  });
});

/** A command's confirmation as the broker delivered it, to be handled again (a retry). */
const sameWord = (command: CommandView, val: ControlValue) => ({
  action: 'success',
  devID: command.devID,
  commandId: command.commandId,
  cmnd: command.cmnd,
  val,
  orgId: scene.orgId,
  outcome: 'success',
  clientId: command.devID,
  receivedAt: Date.parse(command.reply?.at ?? ''),
});

describe("a confirmed value is the device's reading", () => {
  const latestOf = async (devId: string) => (await dynamoDevices.get(devId))?.latest;

  it("brings a light's brightness, a lock's state and a shade's position to its latest values without waiting for a report", async () => {
    // The scene's devices send no reports of their own (the simulator's interval is 0): only the
    // confirmations can move their latest values.
    const { light, lock, shades } = scene.devices;
    const confirmed = async (path: string, body: Record<string, unknown>) => {
      const sent = await send(path, body);
      await waitForCommand(
        scene.editor.token,
        String(body.devID),
        sent.commandId,
        (c) => c.status === 'confirmed',
      );
    };
    await confirmed('setBrightness', { value: 37, devID: light.devID, port: 2, devType: 1 });
    await expect.poll(() => latestOf(light.devID), { timeout: 10_000 }).toMatchObject({ bri: 37 });
    await confirmed('setFanValveValue', lockBody(lock.devID, [1, 0, 0, 0]));
    await expect.poll(() => latestOf(lock.devID), { timeout: 10_000 }).toMatchObject({ lock: 1 });
    await confirmed('setFanValveValue', lockBody(lock.devID, [0, 0, 0, 0]));
    await expect.poll(() => latestOf(lock.devID), { timeout: 10_000 }).toMatchObject({ lock: 0 });
    await confirmed('setRollerShadesValue', { value: 65, devID: shades.devID, port: 0, devType: 3 });
    await expect.poll(() => latestOf(shades.devID), { timeout: 10_000 }).toMatchObject({ shade: 65 });
    // Sent down, a shade stops where its next report says: its position is not made up.
    await confirmed('setRollerShadesValue', {
      value: [0, 0, 0, 0],
      devID: shades.devID,
      port: 0,
      devType: 3,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await latestOf(shades.devID)).toMatchObject({ shade: 65 });
  });

  it('makes the value a device confirmed its latest at once, even when its clock runs ahead', async () => {
    const { lock } = scene.devices;
    // Its last report, unlocked, stamped by its own clock two minutes ahead (up to five are accepted),
    // which its own readings told (device-clock.test.ts plays them over MQTT).
    const ahead = Date.now() + 120_000;
    await dynamoDevices.recordLatest(lock.devID, ahead, { lock: 0 }, 120_000);
    const sent = await send('setFanValveValue', lockBody(lock.devID, [1, 0, 0, 0]));
    const confirmed = await waitForCommand(
      scene.editor.token,
      lock.devID,
      sent.commandId,
      (c) => c.status === 'confirmed',
    );
    // Its word came after that report: locked, without waiting for its next one.
    await expect.poll(() => latestOf(lock.devID), { timeout: 10_000 }).toMatchObject({ lock: 1 });
    const lockedAt = (await dynamoDevices.get(lock.devID))?.latestAt?.lock;
    expect(lockedAt).toBeGreaterThan(ahead);
    // The same word handled again (a retry): no further reading.
    expect(await confirmations(sameWord(confirmed, [1, 0, 0, 0]))).toEqual({ result: 'confirmed' });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await dynamoDevices.get(lock.devID))?.latestAt?.lock).toBe(lockedAt);
    const state = await control<DeviceStateAnswer>(
      'getLockValue',
      { devID: lock.devID, devType: 3, port: 0 },
      scene.viewer.token,
    );
    expect(state.body).toMatchObject({ val: [1, 0, 0, 0], source: 'device' });
  });
});

describe('a failure reply', () => {
  it("a lock that refuses: failed, '{name}: Value change failed'", async () => {
    const { lock } = scene.devices;
    scene.simulator.script(lock.devID, 'fail');
    try {
      const sent = await send('setFanValveValue', lockBody(lock.devID, [0, 0, 0, 0]));
      const command = await waitForCommand(
        scene.editor.token,
        lock.devID,
        sent.commandId,
        (c) => c.status !== 'sent',
      );
      expect(command).toMatchObject({
        status: 'failed',
        text: deviceValueChangeFailedText('LockTest'),
        reply: { outcome: 'fail', action: 'fail' },
      });
      expect(command.text).toBe('LockTest: Value change failed');
    } finally {
      scene.simulator.script(lock.devID, 'answer');
    }
  });

  it("a light that cannot take the value: failed, 'Value set to {val} unsuccessfully.'", async () => {
    const { light } = scene.devices;
    scene.simulator.script(light.devID, 'fail');
    try {
      const sent = await send('setBrightness', { value: 30, devID: light.devID, port: 2, devType: 1 });
      const command = await waitForCommand(
        scene.editor.token,
        light.devID,
        sent.commandId,
        (c) => c.status !== 'sent',
      );
      expect(command).toMatchObject({ status: 'failed', text: 'Value set to 30 unsuccessfully.' });
    } finally {
      scene.simulator.script(light.devID, 'answer');
    }
  });
});

describe('confirmations are idempotent (the IoT rule may deliver one twice, or retry one whose handling failed)', () => {
  it('a redelivered confirmation, or a second word, changes nothing and is not published again', async () => {
    const { shades } = scene.devices;
    const sent = await send('setRollerShadesValue', {
      value: [1, 1, 1, 1],
      devID: shades.devID,
      port: 0,
      devType: 3,
    });
    const confirmed = await waitForCommand(
      scene.editor.token,
      shades.devID,
      sent.commandId,
      (c) => c.status === 'confirmed',
    );
    const event = sameWord(confirmed, [1, 1, 1, 1]);
    // The same word (the same broker time): handled again as a retry, recording nothing new.
    expect(await confirmations(event)).toEqual({ result: 'confirmed' });
    expect(
      await confirmations({ ...event, action: 'fail', outcome: 'fail', receivedAt: Date.now() }),
    ).toEqual({
      result: 'duplicate',
    });
    const [after] = await historyOf(scene.editor.token, shades.devID, 1);
    expect(after).toEqual(confirmed);
  });

  it('a late confirmation delivered twice is recorded once', async () => {
    const { silent } = scene.devices;
    const sent = await send('setFanValveValue', lockBody(silent.devID, [0, 0, 0, 0]));
    await waitForCommand(
      scene.editor.token,
      silent.devID,
      sent.commandId,
      (c) => c.status === 'timed out',
      DEVICE_REPLY_TIMEOUT_MS + 10_000,
    );
    const event = {
      action: 'success',
      devID: silent.devID,
      commandId: sent.commandId,
      cmnd: 54,
      // The lock reports the value it ended with: not the one asked.
      val: [1, 0, 0, 0],
      orgId: scene.orgId,
      outcome: 'success',
      clientId: silent.devID,
      receivedAt: Date.now(),
    };
    expect(await confirmations(event)).toEqual({ result: 'late' });
    const [late] = await historyOf(scene.editor.token, silent.devID, 1);
    expect(late).toMatchObject({
      status: 'confirmed late',
      val: [0, 0, 0, 0],
      lateReply: { outcome: 'success', val: [1, 0, 0, 0] },
      text: confirmedLateText(lockedText(silent.devName)),
    });
    expect(await confirmations({ ...event, receivedAt: Date.now() })).toEqual({ result: 'duplicate' });
    expect((await historyOf(scene.editor.token, silent.devID, 1))[0]).toEqual(late);
  });

  it("ignores confirmations from another organization's topic, unknown commands and non-confirmations", async () => {
    const { light } = scene.devices;
    const sent = await send('testDevice', { devID: light.devID, devType: 1 });
    await waitForCommand(scene.editor.token, light.devID, sent.commandId, (c) => c.status === 'confirmed');
    const base = {
      action: 'success',
      devID: light.devID,
      commandId: sent.commandId,
      outcome: 'success',
      clientId: light.devID,
    };
    expect(await confirmations({ ...base, orgId: 'ctl-elsewhere' })).toEqual({ result: 'unknown' });
    expect(await confirmations({ ...base, orgId: scene.orgId, commandId: '000000000-000000000000' })).toEqual(
      {
        result: 'unknown',
      },
    );
    // A device's own news (device online) carries no command id: not a tracked confirmation.
    expect(
      await confirmations({
        action: 'success',
        devID: light.devID,
        cmnd: 1,
        orgId: scene.orgId,
        outcome: 'success',
        clientId: light.devID,
      }),
    ).toEqual({ result: 'untracked' });
    expect(await confirmations({ devID: 42, orgId: scene.orgId, outcome: 'success' })).toEqual({
      result: 'invalid',
    });
    expect(
      await confirmations({ action: 'success', devID: light.devID, orgId: scene.orgId, outcome: 'maybe' }),
    ).toEqual({ result: 'invalid' });
  });

  it("counts a confirmation only from the device the command went to, not from a sibling's connection", async () => {
    const { silent, light } = scene.devices;
    const sent = await send('setFanValveValue', lockBody(silent.devID, [0, 0, 0, 0]));
    const word = {
      action: 'success',
      devID: silent.devID,
      commandId: sent.commandId,
      cmnd: 54,
      val: [0, 0, 0, 0],
      orgId: scene.orgId,
      outcome: 'success',
      receivedAt: Date.now(),
    };
    // The rule passes the publishing client: a sibling, or what did not come over MQTT.
    expect(await confirmations({ ...word, clientId: light.devID })).toEqual({ result: 'unknown' });
    expect(await confirmations({ ...word, clientId: 'n/a' })).toEqual({ result: 'unknown' });
    expect(await confirmations({ ...word, clientId: undefined })).toEqual({ result: 'unknown' });
    const [pending] = await historyOf(scene.editor.token, silent.devID, 1);
    expect(pending).toMatchObject({ commandId: sent.commandId, status: 'sent' });
    // The device's own word still settles it (in time: none of the above took it).
    expect(await confirmations({ ...word, clientId: silent.devID })).toEqual({ result: 'confirmed' });
  });

  it('a redelivery through the broker leaves the settled command as it was', async () => {
    const { roomUnit } = scene.devices;
    const sent = await send('setFanValveValue', { value: 3, devID: roomUnit.devID, port: 0, devType: 2 });
    const confirmed = await waitForCommand(
      scene.editor.token,
      roomUnit.devID,
      sent.commandId,
      (c) => c.status === 'confirmed',
    );
    const device = await deviceConnection(scene.orgId);
    try {
      const again = { action: 'success', devID: roomUnit.devID, commandId: sent.commandId, cmnd: 54, val: 3 };
      await device.publishAsync(topics.controlSuccess(scene.orgId), JSON.stringify(again), { qos: 1 });
      // A later command's confirmation passes the same rule; once it is settled, the redelivery was seen.
      const marker = await send('testDevice', { devID: roomUnit.devID, devType: 2 });
      await waitForCommand(
        scene.editor.token,
        roomUnit.devID,
        marker.commandId,
        (c) => c.status === 'confirmed',
      );
      const settled = (await historyOf(scene.editor.token, roomUnit.devID)).find(
        (c) => c.commandId === sent.commandId,
      );
      expect(settled).toEqual(confirmed);
    } finally {
      await device.endAsync();
    }
  });
});
