import { describe, expect, it } from 'vitest';
import {
  commandMessageSchema,
  confirmationMessageSchema,
  confirmationTopic,
  groupingFailureOf,
  isBrowserClientId,
  isReservedDeviceId,
  liveFloorMessageSchema,
  topics,
} from '../src/messaging';
import {
  COMFORT_ZONE_RANGE,
  commandText,
  commandValueProblem,
  controlKindOf,
  deviceMessageText,
  powerNodeLevel,
  readingUnit,
  ROOM_UNIT_PORTS,
  roomUnitRange,
  roomUnitValueText,
} from '../src';

const command = {
  commandId: '0mwsfg1d6-bfb8564c8ad9',
  cmnd: 54,
  devID: '00:1A:22:00:03:06',
  devType: 3,
  action: 'set',
  actionHandler: 'setFanValveValue',
  val: [1, 0, 0, 0],
  port: 0,
  usrID: 'user-1',
} as const;

describe('command and confirmation messages', () => {
  it('accepts a command as the platform sends it, and refuses unknown codes and fields', () => {
    expect(commandMessageSchema.parse(command)).toEqual(command);
    expect(commandMessageSchema.safeParse({ ...command, cmnd: 55 }).error?.issues[0]?.message).toBe(
      'cmnd must be one of 1, 3, 4, 17, 54, 62, 63, 201, 202, 203.',
    );
    expect(commandMessageSchema.safeParse({ ...command, extra: 1 }).success).toBe(false);
    expect(commandMessageSchema.safeParse({ ...command, commandId: 'x' }).success).toBe(false);
  });

  it("takes a device's confirmation, dropping fields it does not know", () => {
    const parsed = confirmationMessageSchema.parse({
      action: 'success',
      devID: command.devID,
      commandId: command.commandId,
      cmnd: 54,
      val: [1, 0, 0, 0],
      firmware: '2.1',
    });
    expect(parsed).toEqual({
      action: 'success',
      devID: command.devID,
      commandId: command.commandId,
      cmnd: 54,
      val: [1, 0, 0, 0],
    });
    expect(confirmationMessageSchema.safeParse({ action: 'success' }).success).toBe(false);
  });
});

describe("a device's grouping failure, told on its own", () => {
  const commandId = '0mwsfg1d6-bfb8564c8ad9';

  it('is a fail word on 62 or 3 (grouping), 63 or 4 (ungrouping), without a command id', () => {
    expect(groupingFailureOf('fail', { cmnd: 62 })).toBe('grouping');
    expect(groupingFailureOf('fail', { cmnd: 3 })).toBe('grouping');
    expect(groupingFailureOf('fail', { cmnd: 63 })).toBe('ungrouping');
    expect(groupingFailureOf('fail', { cmnd: 4 })).toBe('ungrouping');
    // A success, a reply to a command of the platform's, or any other word is not one.
    expect(groupingFailureOf('success', { cmnd: 62 })).toBeUndefined();
    expect(groupingFailureOf('fail', { cmnd: 62, commandId })).toBeUndefined();
    for (const cmnd of [undefined, 1, 17, 54, 201] as const)
      expect(groupingFailureOf('fail', { cmnd })).toBeUndefined();
  });

  it('travels on the live floor topic: updates, grouping failures or both, never neither', () => {
    const update = { devID: 'AA:BB', latest: { temp: 21 }, lastSeen: 1 };
    const failure = { devID: 'AA:BB', kind: 'grouping' };
    const parse = (message: object) => liveFloorMessageSchema.safeParse({ floorId: 'f-1', ...message });
    expect(parse({ updates: [update] }).data).toEqual({ floorId: 'f-1', updates: [update] });
    expect(parse({ updates: [], groupingFailures: [failure] }).data).toEqual({
      floorId: 'f-1',
      updates: [],
      groupingFailures: [failure],
    });
    expect(parse({ updates: [update], groupingFailures: [{ ...failure, kind: 'ungrouping' }] }).success).toBe(
      true,
    );
    expect(parse({ updates: [] }).error?.issues[0]?.message).toBe(
      'A live floor message carries updates or grouping failures.',
    );
    for (const groupingFailures of [[], [{ ...failure, kind: 'pairing' }], [{ kind: 'grouping' }], failure])
      expect(parse({ updates: [], groupingFailures }).success, JSON.stringify(groupingFailures)).toBe(false);
    expect(parse({ groupingFailures: [failure] }).success).toBe(false);
  });
});

describe('topics', () => {
  it('tells confirmation topics from command topics', () => {
    expect(confirmationTopic(topics.controlSuccess('org-a'))).toEqual({ orgId: 'org-a', outcome: 'success' });
    expect(confirmationTopic(topics.controlFail('org-a'))).toEqual({ orgId: 'org-a', outcome: 'fail' });
    expect(confirmationTopic(topics.control('org-a', '00:1A'))).toBeUndefined();
    expect(confirmationTopic(topics.commandStatus('org-a', 'u1'))).toBeUndefined();
    expect(confirmationTopic('+/controldata/success')).toBeUndefined();
    expect(confirmationTopic('org-a/controldata/success/x')).toBeUndefined();
    expect(isReservedDeviceId('success')).toBe(true);
    expect(isReservedDeviceId('a/b')).toBe(true);
    expect(isReservedDeviceId('00:1A:22:00:03:06')).toBe(false);
  });

  it('reserves the browser client-id form: no device id can take it, and browsers use nothing else', () => {
    const browserId = `web-${crypto.randomUUID()}`;
    expect(isBrowserClientId(browserId)).toBe(true);
    expect(isReservedDeviceId(browserId)).toBe(true);
    expect(isReservedDeviceId('WEB-anything')).toBe(true);
    for (const id of [
      '00:1A:22:00:03:06',
      'web-',
      'web-not-a-uuid',
      `x${browserId}`,
      `${browserId}x`,
      'other@',
    ])
      expect(isBrowserClientId(id)).toBe(false);
  });
});

describe('texts of outcomes', () => {
  const lock = { devName: 'LockServerRoom', connDev: 'lock' };
  const light = { devName: 'LightsOffice', connDev: 'light' };

  it('says nothing while pending, and what the specification says after', () => {
    const set = { call: 'setFanValveValue' as const, val: [1, 0, 0, 0] };
    expect(commandText({ ...set, status: 'sent' }, lock)).toBeUndefined();
    expect(commandText({ ...set, status: 'confirmed' }, lock)).toBe('LockServerRoom: is Locked');
    expect(commandText({ ...set, val: [0, 0, 0, 0], status: 'confirmed' }, lock)).toBe(
      'LockServerRoom: is Unlocked',
    );
    expect(commandText({ ...set, status: 'failed' }, lock)).toBe('LockServerRoom: Value change failed');
    expect(commandText({ ...set, status: 'timed out' }, lock)).toBe('Something went wrong');
    const bri = { call: 'setBrightness' as const, val: 60 };
    expect(commandText({ ...bri, status: 'confirmed' }, light)).toBe('Value set to 60 successfully.');
    expect(
      commandText(
        { ...bri, status: 'confirmed', reply: { outcome: 'success', action: 'success', val: 59, at: '' } },
        light,
      ),
    ).toBe('Value set to 59 successfully.');
    expect(commandText({ ...bri, status: 'failed' }, light)).toBe('Value set to 60 unsuccessfully.');
    const test = { call: 'testDevice' as const };
    expect(commandText({ ...test, status: 'confirmed' }, light)).toBe('Device Online');
    expect(commandText({ ...test, status: 'timed out' }, light)).toBe('Device Offline');
  });

  it("confirmed late: the text of the device's late value, marked late", () => {
    const lateReply = { outcome: 'success' as const, action: 'success', val: 35, at: '' };
    const bri = { call: 'setBrightness' as const, val: 60, lateReply };
    expect(commandText({ ...bri, status: 'confirmed late' }, light)).toBe(
      'Value set to 35 successfully. (confirmed late)',
    );
    // A late failure leaves the command timed out, with the timed-out text.
    expect(
      commandText({ ...bri, status: 'timed out', lateReply: { ...lateReply, outcome: 'fail' } }, light),
    ).toBe('Something went wrong');
    const lock = { devName: 'LockServerRoom', connDev: 'lock' };
    expect(
      commandText(
        {
          call: 'setFanValveValue',
          status: 'confirmed late',
          lateReply: { ...lateReply, val: [0, 0, 0, 0] },
        },
        lock,
      ),
    ).toBe('LockServerRoom: is Unlocked (confirmed late)');
  });

  it("names a device's own messages by their command code", () => {
    expect(deviceMessageText('success', { cmnd: 1 })).toBe('Device Online');
    expect(deviceMessageText('fail', { cmnd: 1 })).toBe('Device Offline');
    expect(deviceMessageText('fail', { cmnd: 17 })).toBe('Pairing of device is unsuccessful.');
    expect(deviceMessageText('success', { cmnd: 62 })).toBe('Device grouped successfully.');
    expect(deviceMessageText('fail', { cmnd: 63 })).toBe('Failure while ungrouping devices.');
    expect(deviceMessageText('fail', { cmnd: 3 })).toBe('Failure while grouping devices.');
    expect(deviceMessageText('success', { cmnd: 54, val: 7 })).toBe('Value set to 7 successfully.');
    expect(deviceMessageText('success', { cmnd: 201, val: 1 })).toBe('Value changed to 1');
    expect(deviceMessageText('success', { cmnd: 99 })).toBeUndefined();
  });

  it('shows power node levels 20/60/100', () => {
    expect([0, 10, 40, 41, 59, 60, 100].map(powerNodeLevel)).toEqual([0, 20, 20, 60, 60, 100, 100]);
  });
});

describe("the room unit's comfort zone (port 2)", () => {
  const roomUnit = {
    devName: 'RoomUnitKitchen',
    devType: 2,
    connDev: 'valve',
    dataPoints: [{ dp: 'temp', readonly: true }, { dp: 'fan' }, { dp: 'valve' }, { dp: 'zone' }],
  };
  const set = (val: number, port: number) =>
    commandValueProblem(roomUnit, { call: 'setFanValveValue', val, port });

  it('takes 15 to 30 °C in steps of 0.5 on port 2, and the fan and valve keep their ranges', () => {
    expect(roomUnitRange(ROOM_UNIT_PORTS.zone)).toBe(COMFORT_ZONE_RANGE);
    expect(COMFORT_ZONE_RANGE).toEqual({ min: 15, max: 30, step: 0.5 });
    for (const ok of [15, 21.5, 22, 30]) expect(set(ok, 2)).toBeUndefined();
    for (const bad of [14.5, 30.5, 21.3, 10]) expect(set(bad, 2)).toBe(roomUnitValueText(2));
    expect(roomUnitValueText(2)).toBe(
      'value must be a comfort zone temperature (°C) from 15 to 30 in steps of 0.5.',
    );
    expect(set(21.5, 0)).toBe(roomUnitValueText(0));
    expect(set(4.5, 1)).toBeUndefined();
  });

  it('makes a device with only a comfort zone a room unit', () => {
    expect(controlKindOf({ devType: 2, dataPoints: [{ dp: 'zone' }] })).toBe('roomUnit');
  });

  it('shows the zone temperature in °F and the comfort zone in °C', () => {
    expect(readingUnit('zoneTemp')).toBe('°F');
    expect(readingUnit('zone')).toBe('°C');
  });
});
