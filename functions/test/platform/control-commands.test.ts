import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@argentum/contracts/messaging';
import type {
  CommandSentAnswer,
  CommandsSentAnswer,
  CommandView,
  DeviceStateAnswer,
} from '@argentum/contracts';
import {
  confirmedLateText,
  DEVICE_ONLINE_TEXT,
  DEVICE_REPLY_TIMEOUT_MS,
  lockedText,
  unlockedText,
  valueSetText,
} from '@argentum/contracts';
import {
  type ControlScene,
  control,
  controlScene,
  historyOf,
  waitForCommand,
  watchOutcomes,
} from '../support/control';
import { waitUntil } from '../support/telemetry';
import { dynamoDevices } from '../../src/stores/devices';

let scene: ControlScene;
beforeAll(async () => {
  scene = await controlScene();
});
afterAll(async () => {
  await scene.stop();
});

/** Sends a control call as the editor, expects it sent, waits until the device's word settles it. */
async function sendAndSettle(path: string, body: Record<string, unknown>, devID: string) {
  const before = Date.now();
  const sent = await control<CommandSentAnswer>(path, body, scene.editor.token);
  expect(sent.status).toBe(200);
  expect(sent.body).toEqual({
    commandId: expect.stringMatching(/^[0-9a-z]{9}-[0-9a-f]{12}$/),
    status: expect.stringMatching(/^(sent|confirmed)$/),
    deadlineAt: expect.any(String),
  });
  const deadline = Date.parse(sent.body.deadlineAt) - before;
  expect(deadline).toBeGreaterThanOrEqual(DEVICE_REPLY_TIMEOUT_MS);
  expect(deadline).toBeLessThan(DEVICE_REPLY_TIMEOUT_MS + 5000);
  const settled = await waitForCommand(
    scene.editor.token,
    devID,
    sent.body.commandId,
    (c) => c.status !== 'sent' && c.status !== 'requested',
  );
  return settled;
}

/** The part of a settled command that says who asked what and how it ended. */
const outcome = (command: CommandView) => ({
  call: command.call,
  cmnd: command.cmnd,
  val: command.val,
  status: command.status,
  text: command.text,
  requestedBy: command.requestedBy,
  replyOutcome: command.reply?.outcome,
  replyVal: command.reply?.val,
});

describe('each control call, end to end: request -> device -> confirmation -> tracked outcome', () => {
  it('setBrightness: confirmed with the value the light took', async () => {
    const { light } = scene.devices;
    const command = await sendAndSettle(
      'setBrightness',
      { value: 60, devID: light.devID, port: 2, devType: 1, user: 'ignored', groupNumber: 1234 },
      light.devID,
    );
    expect(outcome(command)).toEqual({
      call: 'setBrightness',
      cmnd: 54,
      val: 60,
      status: 'confirmed',
      text: valueSetText(60),
      requestedBy: { userId: scene.editor.userId, userName: scene.editor.userName },
      replyOutcome: 'success',
      replyVal: 60,
    });
    expect(command.text).toBe('Value set to 60 successfully.');
    expect(scene.simulator.stateOf(light.devID)).toMatchObject({ bri: 60 });
  });

  it('setFanValveValue locks and unlocks a lock; getLockValue answers what the device reported', async () => {
    const { lock } = scene.devices;
    const locked = await sendAndSettle(
      'setFanValveValue',
      { value: [1, 0, 0, 0], devID: lock.devID, port: 0, devType: 3 },
      lock.devID,
    );
    expect(outcome(locked)).toMatchObject({ status: 'confirmed', text: lockedText('LockTest') });
    expect(locked.text).toBe('LockTest: is Locked');
    const state = await control<DeviceStateAnswer>(
      'getLockValue',
      { devID: lock.devID, devType: 3, port: 0 },
      scene.viewer.token,
    );
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      devID: lock.devID,
      port: 0,
      val: [1, 0, 0, 0],
      source: 'device',
      reportedAt: locked.reply?.at,
      lastCommand: { commandId: locked.commandId, status: 'confirmed' },
    });

    const unlocked = await sendAndSettle(
      'setFanValveValue',
      { value: [0, 0, 0, 0], devID: lock.devID, port: 0, devType: 3 },
      lock.devID,
    );
    expect(unlocked.text).toBe(unlockedText('LockTest'));
    const after = await control<DeviceStateAnswer>(
      'getLockValue',
      { devID: lock.devID, devType: 3, port: 0 },
      scene.viewer.token,
    );
    expect(after.body).toMatchObject({ val: [0, 0, 0, 0], source: 'device' });
  });

  it('setFanValveValue sets a room unit fan (port 0) and valve (port 1); getFanValveValue answers each', async () => {
    const { roomUnit } = scene.devices;
    const fan = await sendAndSettle(
      'setFanValveValue',
      { value: 7, devID: roomUnit.devID, port: 0, devType: 2 },
      roomUnit.devID,
    );
    expect(outcome(fan)).toMatchObject({ status: 'confirmed', text: 'Value set to 7 successfully.' });
    const valve = await sendAndSettle(
      'setFanValveValue',
      { value: 4.5, devID: roomUnit.devID, port: 1, devType: 2 },
      roomUnit.devID,
    );
    expect(valve.text).toBe('Value set to 4.5 successfully.');
    expect(scene.simulator.stateOf(roomUnit.devID)).toMatchObject({ fan: 7, valve: 4.5 });
    // Each confirmed value went on as a reading of its point: the valve's, the newer, moved the
    // device's time past the fan's confirmation, which still stands (its point said nothing since).
    await waitUntil(async () => {
      const { latest } = (await dynamoDevices.get(roomUnit.devID)) ?? {};
      return latest?.fan === 7 && latest.valve === 4.5 ? true : undefined;
    });
    const fanState = await control<DeviceStateAnswer>(
      'getFanValveValue',
      { devID: roomUnit.devID, devType: 2, port: 0 },
      scene.viewer.token,
    );
    expect(fanState.body).toMatchObject({ val: 7, source: 'device' });
    const valveState = await control<DeviceStateAnswer>(
      'getFanValveValue',
      { devID: roomUnit.devID, devType: 2, port: 1 },
      scene.viewer.token,
    );
    expect(valveState.body).toMatchObject({
      val: 4.5,
      source: 'device',
      lastCommand: { commandId: valve.commandId },
    });
  });

  it("setFanValveValue sets a room unit's comfort zone (port 2, °C); its history and getFanValveValue say so", async () => {
    const { roomUnit } = scene.devices;
    const zone = await sendAndSettle(
      'setFanValveValue',
      { value: 21.5, devID: roomUnit.devID, port: 2, devType: 2 },
      roomUnit.devID,
    );
    expect(outcome(zone)).toEqual({
      call: 'setFanValveValue',
      cmnd: 54,
      val: 21.5,
      status: 'confirmed',
      text: 'Value set to 21.5 successfully.',
      requestedBy: { userId: scene.editor.userId, userName: scene.editor.userName },
      replyOutcome: 'success',
      replyVal: 21.5,
    });
    expect(zone.port).toBe(2);
    // The simulated room unit took it (its fan and valve are other ports).
    expect(scene.simulator.stateOf(roomUnit.devID)).toMatchObject({ zone: 21.5 });
    const state = await control<DeviceStateAnswer>(
      'getFanValveValue',
      { devID: roomUnit.devID, devType: 2, port: 2 },
      scene.viewer.token,
    );
    expect(state.body).toMatchObject({ port: 2, val: 21.5, source: 'device' });
    const [newest] = await historyOf(scene.viewer.token, roomUnit.devID, 1);
    expect(newest).toMatchObject({ commandId: zone.commandId, port: 2, val: 21.5, status: 'confirmed' });
  });

  it("a room unit that does not answer its comfort zone in 5 s: 'Something went wrong', then confirmed late", async () => {
    const { roomUnit } = scene.devices;
    scene.simulator.script(roomUnit.devID, 'slow');
    try {
      const sent = await control<CommandSentAnswer>(
        'setFanValveValue',
        { value: 24, devID: roomUnit.devID, port: 2, devType: 2 },
        scene.editor.token,
      );
      expect(sent.status).toBe(200);
      const late = await waitForCommand(
        scene.viewer.token,
        roomUnit.devID,
        sent.body.commandId,
        (c) => c.status === 'confirmed late',
        30_000,
      );
      expect(late.text).toBe(confirmedLateText(valueSetText(24)));
      expect(late.lateReply).toMatchObject({ outcome: 'success', val: 24 });
    } finally {
      scene.simulator.script(roomUnit.devID, 'answer');
    }
  }, 40_000);

  it('setRollerShadesValue: Slide Up and Slide Down', async () => {
    const { shades } = scene.devices;
    const up = await sendAndSettle(
      'setRollerShadesValue',
      { value: [1, 1, 1, 1], devID: shades.devID, port: 0, devType: 3 },
      shades.devID,
    );
    expect(outcome(up)).toMatchObject({ status: 'confirmed', text: 'Value set to [1,1,1,1] successfully.' });
    expect(scene.simulator.stateOf(shades.devID)).toMatchObject({ shade: 100 });
    const down = await sendAndSettle(
      'setRollerShadesValue',
      { value: [0, 0, 0, 0], devID: shades.devID, port: 0, devType: 3 },
      shades.devID,
    );
    expect(down.status).toBe('confirmed');
    expect(scene.simulator.stateOf(shades.devID)).toMatchObject({ shade: 0 });
  });

  it('setbacnetinfo writes the point named by key', async () => {
    const { bacnet } = scene.devices;
    const command = await sendAndSettle(
      'setbacnetinfo',
      { value: 19.5, devID: bacnet.devID, port: 0, key: 'setpoint', devType: 7 },
      bacnet.devID,
    );
    expect(outcome(command)).toMatchObject({ status: 'confirmed', text: 'Value set to 19.5 successfully.' });
    expect(command.key).toBe('setpoint');
    expect(scene.simulator.stateOf(bacnet.devID)).toMatchObject({ setpoint: 19.5 });
  });

  it("testDevice: an online device answers, 'Device Online'", async () => {
    const { light } = scene.devices;
    const command = await sendAndSettle('testDevice', { devID: light.devID, devType: 1 }, light.devID);
    expect(outcome(command)).toMatchObject({ call: 'testDevice', cmnd: 1, status: 'confirmed' });
    expect(command.text).toBe(DEVICE_ONLINE_TEXT);
  });

  it('setValueOnDevices: one tracked command per device, each confirmed', async () => {
    const { light, shades } = scene.devices;
    const sent = await control<CommandsSentAnswer>(
      'setValueOnDevices',
      { devIDs: [light.devID, shades.devID], devType: 1, value: 40 },
      scene.editor.token,
    );
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('success');
    expect(sent.body.commands.map((c) => c.status)).toEqual(['sent', 'sent']);
    expect(sent.body.commands.map((c) => c.devID)).toEqual([light.devID, shades.devID]);
    for (const { devID, commandId } of sent.body.commands) {
      const command = await waitForCommand(
        scene.editor.token,
        devID,
        commandId,
        (c) => c.status === 'confirmed',
      );
      expect(command).toMatchObject({
        call: 'setValueOnDevices',
        val: 40,
        text: 'Value set to 40 successfully.',
      });
    }
    expect(scene.simulator.stateOf(light.devID)).toMatchObject({ bri: 40 });
    expect(scene.simulator.stateOf(shades.devID)).toMatchObject({ shade: 40 });
  });
});

describe("browsers get the device's word", () => {
  it('publishes each settled command on {org}/commandstatus/{userId} to the user who asked, and no one else', async () => {
    const watcher = await watchOutcomes(scene.editor, scene.orgId);
    const bystander = await watchOutcomes(scene.viewer, scene.orgId);
    try {
      // Another member's outcomes are not theirs to receive.
      await expect(
        bystander.client.subscribeAsync(topics.commandStatus(scene.orgId, scene.editor.userId)),
      ).rejects.toThrow(/Subscribe error/);
      const { light } = scene.devices;
      const sent = await control<CommandSentAnswer>(
        'setBrightness',
        { value: 20, devID: light.devID, port: 2, devType: 1 },
        scene.editor.token,
      );
      expect(sent.status).toBe(200);
      const seen = await waitForPublished(watcher.received, sent.body.commandId);
      expect(seen).toMatchObject({
        commandId: sent.body.commandId,
        devID: light.devID,
        devName: 'LightsTest',
        status: 'confirmed',
        text: 'Value set to 20 successfully.',
        requestedBy: { userId: scene.editor.userId },
      });
      // Published once, to the editor's topic: the viewer's connection, subscribed to its own, got nothing.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(bystander.received).toEqual([]);
    } finally {
      await Promise.all([watcher.client.endAsync(), bystander.client.endAsync()]);
    }
  });

  it('keeps who changed what and when, newest first, readable by a read-only member', async () => {
    const { lock } = scene.devices;
    const sent = await sendAndSettle(
      'setFanValveValue',
      { value: [1, 0, 0, 0], devID: lock.devID, port: 0, devType: 3 },
      lock.devID,
    );
    const history = await control<{ devID: string; commands: CommandView[] }>(
      'getCommandHistory',
      { devID: lock.devID, limit: 2 },
      scene.viewer.token,
    );
    expect(history.status).toBe(200);
    expect(history.body.devID).toBe(lock.devID);
    expect(history.body.commands).toHaveLength(2);
    const [newest, older] = history.body.commands;
    expect(newest).toMatchObject({
      commandId: sent.commandId,
      devName: 'LockTest',
      requestedBy: { userId: scene.editor.userId, userName: 'Erin Editor' },
      val: [1, 0, 0, 0],
      status: 'confirmed',
      text: 'LockTest: is Locked',
    });
    expect(Date.parse(newest?.requestedAt ?? '')).toBeGreaterThan(Date.parse(older?.requestedAt ?? ''));
    expect(Date.parse(newest?.reply?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(newest?.requestedAt ?? ''));
  });
});

function waitForPublished(received: CommandView[], commandId: string): Promise<CommandView> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 10_000;
    const check = () => {
      const found = received.find((c) => c.commandId === commandId);
      if (found) return resolve(found);
      if (Date.now() > deadline) return reject(new Error('no outcome published'));
      setTimeout(check, 50);
    };
    check();
  });
}
