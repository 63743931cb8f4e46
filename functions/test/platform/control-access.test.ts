import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brightnessValueText,
  NO_DEVICE_FOUND_TEXT,
  shadeValueText,
  USER_UNAUTHORIZED_TEXT,
} from '@argentum/contracts';
import { createUser, signInAs } from '../support/api';
import { type ControlScene, control, controlScene, historyOf } from '../support/control';

let scene: ControlScene;
let other: ControlScene;
beforeAll(async () => {
  [scene, other] = await Promise.all([controlScene(), controlScene()]);
});
afterAll(async () => {
  await Promise.all([scene.stop(), other.stop()]);
});

/** A valid body of every call that sends a command, for a device. */
const writes = (devID: string) =>
  [
    ['setBrightness', { value: 50, devID, port: 2, devType: 1 }],
    ['setRollerShadesValue', { value: [1, 1, 1, 1], devID, port: 0, devType: 3 }],
    ['setFanValveValue', { value: [1, 0, 0, 0], devID, port: 0, devType: 3 }],
    ['setbacnetinfo', { value: 18, devID, port: 0, key: 'setpoint', devType: 7 }],
    ['testDevice', { devID, devType: 3 }],
    ['setValueOnDevices', { devIDs: [devID], devType: 3, value: 1 }],
  ] as const;
const reads = (devID: string) =>
  [
    ['getLockValue', { devID, devType: 3, port: 0 }],
    ['getFanValveValue', { devID, devType: 2, port: 0 }],
    ['getCommandHistory', { devID }],
  ] as const;

describe('roles and organizations, decided on the server', () => {
  it('refuses every command of a read-only member (403, nothing sent or recorded); lets them read', async () => {
    const { lock } = scene.devices;
    for (const [path, body] of writes(lock.devID)) {
      const result = await control(path, body, scene.viewer.token);
      expect({ path, status: result.status, body: result.body }).toEqual({
        path,
        status: 403,
        body: { message: USER_UNAUTHORIZED_TEXT },
      });
    }
    expect(await historyOf(scene.viewer.token, lock.devID)).toEqual([]);
    for (const [path, body] of reads(lock.devID)) {
      expect((await control(path, body, scene.viewer.token)).status, path).toBe(200);
    }
  });

  it('refuses a member read-only here but read/write elsewhere, in this organization', async () => {
    const mixed = await createUser({ [scene.orgId]: 0, [other.orgId]: 1 });
    const { accessToken } = await signInAs(mixed);
    const result = await control('setBrightness', writes(scene.devices.light.devID)[0][1], accessToken);
    expect(result).toMatchObject({ status: 403, body: { message: USER_UNAUTHORIZED_TEXT } });
    const own = await control('setBrightness', writes(other.devices.light.devID)[0][1], accessToken);
    expect(own.status).toBe(200);
  });

  it("answers another organization's device exactly like an unknown one (404), for every call", async () => {
    const foreign = other.devices.lock.devID;
    for (const [path, body] of [...writes(foreign), ...reads(foreign)]) {
      const result = await control(path, body, scene.editor.token);
      const unknown = await control(
        path,
        JSON.parse(JSON.stringify(body).replaceAll(foreign, 'AA:BB:CC:DD:EE:FF')),
        scene.editor.token,
      );
      expect({ path, status: result.status, body: result.body }).toEqual({
        path,
        status: 404,
        body: { message: NO_DEVICE_FOUND_TEXT },
      });
      expect(unknown.body).toEqual(result.body);
      expect(unknown.status).toBe(result.status);
    }
    // Nothing was sent to it or recorded.
    expect(await historyOf(other.editor.token, foreign)).toEqual([]);
  });

  it('sends nothing when one of several devices is foreign', async () => {
    const own = scene.devices.roomUnit.devID;
    const result = await control(
      'setValueOnDevices',
      { devIDs: [own, other.devices.light.devID], devType: 2, value: 5 },
      scene.editor.token,
    );
    expect(result).toMatchObject({ status: 404, body: { message: NO_DEVICE_FOUND_TEXT } });
    expect(await historyOf(scene.editor.token, own)).toEqual([]);
  });

  it('answers a device id that names a confirmation topic as unknown', async () => {
    const result = await control('testDevice', { devID: 'success', devType: 3 }, scene.editor.token);
    expect(result).toMatchObject({ status: 404, body: { message: NO_DEVICE_FOUND_TEXT } });
  });
});

describe('bad payloads: 400 with a message that names the problem', () => {
  const devID = 'AA:BB:CC:DD:EE:01';
  const cases: [string, Record<string, unknown>, string][] = [
    ['setFanValveValue', { definitelyNotAField: 1 }, 'value is required.'],
    ['setRollerShadesValue', { definitelyNotAField: 1 }, 'value is required.'],
    ['setbacnetinfo', { definitelyNotAField: 1 }, 'value is required.'],
    [
      'setFanValveValue',
      { value: 3, devID, port: 0, devType: 2, extra: true },
      "Unknown field 'extra' in request body.",
    ],
    [
      'setRollerShadesValue',
      { value: [1, 1, 1, 1], devID, port: 0, devType: 3, speed: 2 },
      "Unknown field 'speed' in request body.",
    ],
    [
      'setbacnetinfo',
      { value: 1, devID, port: 0, key: 'k', devType: 7, priority: 8 },
      "Unknown field 'priority' in request body.",
    ],
    [
      'setFanValveValue',
      { value: 31, devID, port: 0, devType: 2 },
      'value must be a fan speed or valve opening from 0 to 10, a comfort zone temperature from 15 to 30, or a lock state such as [1,0,0,0].',
    ],
    [
      'setFanValveValue',
      { value: { on: true }, devID, port: 0, devType: 2 },
      'value must be a fan speed or valve opening from 0 to 10, a comfort zone temperature from 15 to 30, or a lock state such as [1,0,0,0].',
    ],
    ['setRollerShadesValue', { value: [1, 1], devID, port: 0, devType: 3 }, shadeValueText],
    [
      'setbacnetinfo',
      { value: [1], devID, port: 0, key: 'k', devType: 7 },
      'value must be a number, a text, or true or false.',
    ],
    ['setBrightness', { value: 101, devID, port: 0, devType: 1 }, brightnessValueText],
    ['setBrightness', { value: '50', devID, port: 0, devType: 1 }, brightnessValueText],
    [
      'setBrightness',
      { value: 50, devID, port: { a: 1 }, devType: 1 },
      'port must be a port number (0 to 8) or a short text.',
    ],
    ['setBrightness', { value: 50, devID, devType: 1 }, 'port is required.'],
    ['setbacnetinfo', { value: 1, devID, port: 0, devType: 7 }, 'key is required.'],
    ['testDevice', { devID }, 'devType is required.'],
    ['setValueOnDevices', { devIDs: [], devType: 1, value: 1 }, 'devIDs is too short or too small.'],
    [
      'setValueOnDevices',
      { devIDs: [devID], devType: 1, value: { x: 1 } },
      'value must be a number, a text, true or false, or a list of up to 8 numbers.',
    ],
    ['getCommandHistory', { devID, limit: 0 }, 'limit is too short or too small.'],
    ['getCommandHistory', { devID, limit: 101 }, 'limit is too long or too large.'],
  ];
  it.each(cases)('%s %j: %s', async (path, body, message) => {
    const result = await control(path, body, scene.editor.token);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ message });
  });
});
