import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bacnetKeyText,
  bacnetValueText,
  brightnessValueText,
  lockValueText,
  roomUnitValueText,
  shadeValueText,
  takesNoValueText,
} from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import { dynamo } from '../../src/aws/dynamo';
import { config } from '../../src/config';
import { type Device, deviceItem } from '../../src/stores/devices';
import { createUser, signInAs } from '../support/api';
import { control, deviceConnection, historyOf } from '../support/control';

/**
 * A command is checked against its device's kind, range and step before anything is recorded or sent:
 * a refused one answers 400 with the rule, leaves no trace in the device's history and never reaches
 * the broker (each device's own connection listens on its command topic).
 */
const suffix = randomUUID().slice(0, 8);
const orgId = `val-${suffix}`;
const dp = (name: string, readonly = false) => ({ dp: name, dn: name, readonly });
const base = (n: number, devName: string, devType: number, rest: Partial<Device>): Device => ({
  devID: `VL:${suffix}:${String(n).padStart(2, '0')}`,
  devName,
  devType,
  orgID: orgId,
  onFloor: false,
  dataPoints: [],
  properties: {},
  updatedAt: new Date(0).toISOString(),
  ...rest,
});
const devices = {
  light: base(1, 'LightsRange', 1, { connDev: 'light', port: 2, dataPoints: [dp('bri')] }),
  lock: base(2, 'LockRange', 3, { connDev: 'lock', port: 0, dataPoints: [dp('lock')] }),
  roomUnit: base(3, 'RoomUnitRange', 2, {
    connDev: 'valve',
    port: 0,
    dataPoints: [dp('temp', true), dp('fan'), dp('valve'), dp('zone'), dp('zoneTemp', true)],
  }),
  shades: base(4, 'ShadesRange', 3, { connDev: 'rollershades', port: 0, dataPoints: [dp('shade')] }),
  bacnet: base(5, 'BacnetRange', 7, { dataPoints: [dp('sat', true), dp('setpoint')] }),
  ieq: base(6, 'IeqRange', 5, { dataPoints: [dp('temp', true)] }),
};

let token: string;
const wire: { devID: string; message: Record<string, unknown> }[] = [];
const connections: MqttClient[] = [];

beforeAll(async () => {
  for (const device of Object.values(devices)) {
    await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: deviceItem(device) }));
    const connection = await deviceConnection(orgId, device.devID);
    connection.on('message', (_topic, payload) =>
      wire.push({ devID: device.devID, message: JSON.parse(payload.toString()) as Record<string, unknown> }),
    );
    await connection.subscribeAsync(topics.control(orgId, device.devID));
    connections.push(connection);
  }
  const editor = await createUser(1, [orgId]);
  token = (await signInAs(editor)).accessToken;
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.endAsync()));
});

const { light, lock, roomUnit, shades, bacnet, ieq } = devices;
const big = 2 ** 53 + 2;
/** The request schema refuses an inexact number before the device's rules are asked. */
const tooLarge = /^value (must be|is too long or too large)/;

const refused: [string, string, Record<string, unknown>, RegExp | string][] = [
  ['light 101', 'setValueOnDevices', { devIDs: [light.devID], devType: 1, value: 101 }, brightnessValueText],
  ['light -5', 'setValueOnDevices', { devIDs: [light.devID], devType: 1, value: -5 }, brightnessValueText],
  [
    'light "text"',
    'setValueOnDevices',
    { devIDs: [light.devID], devType: 1, value: 'text' },
    brightnessValueText,
  ],
  ['light 1e300', 'setValueOnDevices', { devIDs: [light.devID], devType: 1, value: 1e300 }, tooLarge],
  ['light 2^53+2', 'setValueOnDevices', { devIDs: [light.devID], devType: 1, value: big }, tooLarge],
  [
    'a light 50.5 (step 1)',
    'setBrightness',
    { devID: light.devID, devType: 1, port: 2, value: 50.5 },
    brightnessValueText,
  ],
  [
    'brightness on a lock',
    'setBrightness',
    { devID: lock.devID, devType: 3, port: 0, value: 50 },
    takesNoValueText('LockRange'),
  ],
  [
    'brightness on an IEQ sensor',
    'setBrightness',
    { devID: ieq.devID, devType: 5, port: 0, value: 50 },
    takesNoValueText('IeqRange'),
  ],
  [
    'brightness on a room unit',
    'setBrightness',
    { devID: roomUnit.devID, devType: 2, port: 1, value: 5 },
    takesNoValueText('RoomUnitRange'),
  ],
  [
    'valve 5.05 (step 0.1)',
    'setFanValveValue',
    { devID: roomUnit.devID, devType: 2, port: 1, value: 5.05 },
    roomUnitValueText(1),
  ],
  [
    'fan 5.5 (step 1)',
    'setFanValveValue',
    { devID: roomUnit.devID, devType: 2, port: 0, value: 5.5 },
    roomUnitValueText(0),
  ],
  [
    'fan 0 (from 1)',
    'setFanValveValue',
    { devID: roomUnit.devID, devType: 2, port: 0, value: 0 },
    roomUnitValueText(0),
  ],
  [
    'comfort zone 14.5 (from 15)',
    'setFanValveValue',
    { devID: roomUnit.devID, devType: 2, port: 2, value: 14.5 },
    roomUnitValueText(2),
  ],
  [
    'comfort zone 21.3 (step 0.5)',
    'setFanValveValue',
    { devID: roomUnit.devID, devType: 2, port: 2, value: 21.3 },
    roomUnitValueText(2),
  ],
  [
    'comfort zone 30.5 (to 30)',
    'setFanValveValue',
    { devID: roomUnit.devID, devType: 2, port: 2, value: 30.5 },
    /^value must be a fan speed or valve opening from 0 to 10, a comfort zone temperature from 15 to 30/,
  ],
  [
    'a comfort zone of 22 on the fan port (1-10)',
    'setFanValveValue',
    { devID: roomUnit.devID, devType: 2, port: 0, value: 22 },
    roomUnitValueText(0),
  ],
  [
    'a number to a lock',
    'setFanValveValue',
    { devID: lock.devID, devType: 3, port: 0, value: 5 },
    lockValueText,
  ],
  [
    'a shade at 40.5',
    'setRollerShadesValue',
    { devID: shades.devID, devType: 3, port: 0, value: 40.5 },
    shadeValueText,
  ],
  [
    'bacnet 1e300',
    'setbacnetinfo',
    { devID: bacnet.devID, devType: 7, port: 0, key: 'setpoint', value: 1e300 },
    tooLarge,
  ],
  [
    'bacnet 2^53+2',
    'setbacnetinfo',
    { devID: bacnet.devID, devType: 7, port: 0, key: 'setpoint', value: big },
    tooLarge,
  ],
  [
    'bacnet to a read-only point',
    'setbacnetinfo',
    { devID: bacnet.devID, devType: 7, port: 0, key: 'sat', value: 20 },
    bacnetKeyText,
  ],
  [
    'a value several devices cannot all take',
    'setValueOnDevices',
    { devIDs: [shades.devID, light.devID, roomUnit.devID], devType: 1, value: 50 },
    roomUnitValueText(undefined),
  ],
];

describe('commands outside the device kind, range or step', () => {
  it.each(refused)(
    '%s: 400 with the rule, nothing recorded, nothing sent',
    async (_name, path, body, text) => {
      const answer = await control<{ message: string }>(path, body, token);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toEqual(typeof text === 'string' ? text : expect.stringMatching(text));
    },
  );

  it('bacnetValueText names the limit', () => {
    expect(bacnetValueText).toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('left no command in any history and nothing on the wire, while values in range are sent', async () => {
    for (const device of Object.values(devices)) expect(await historyOf(token, device.devID)).toEqual([]);
    const inRange: [string, Record<string, unknown>][] = [
      ['setValueOnDevices', { devIDs: [light.devID], devType: 1, value: 100 }],
      ['setFanValveValue', { devID: roomUnit.devID, devType: 2, port: 1, value: 5.1 }],
      ['setbacnetinfo', { devID: bacnet.devID, devType: 7, port: 0, key: 'setpoint', value: 19.5 }],
      ['setFanValveValue', { devID: lock.devID, devType: 3, port: 0, value: [1, 0, 0, 0] }],
      ['setRollerShadesValue', { devID: shades.devID, devType: 3, port: 0, value: 40 }],
      ['testDevice', { devID: ieq.devID, devType: 5 }],
    ];
    for (const [path, body] of inRange) expect((await control(path, body, token)).status).toBe(200);
    // The broker delivers in order to each device: once its command arrived, a refused one sent
    // earlier would have arrived before it.
    await expect.poll(() => wire.length).toBe(inRange.length);
    expect(new Set(wire.map((w) => w.devID)).size).toBe(inRange.length);
    expect(wire.map((w) => [w.devID, w.message.val])).toEqual(
      expect.arrayContaining([
        [light.devID, 100],
        [roomUnit.devID, 5.1],
        [bacnet.devID, 19.5],
        [lock.devID, [1, 0, 0, 0]],
        [shades.devID, 40],
        [ieq.devID, undefined],
      ]),
    );
  });
});
