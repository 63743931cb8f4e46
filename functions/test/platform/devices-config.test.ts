import { describe, expect, it } from 'vitest';
import { VENDOR_LINK_ADMIN_TEXT, VENDOR_LINK_PROPERTIES } from '@argentum/contracts';
import {
  dc,
  DEVICE_NOT_FOUND,
  expectSameAnswer,
  newDevices,
  newPlace,
  stored,
  UNKNOWN_DEVICE,
  userWith,
} from './devices-fixtures';

/** The device configuration drawer: names, properties, data points and thermistors (roles above 0). */

async function world() {
  const a = await newPlace('Alpha');
  const b = await newPlace('Beta');
  const [motion, io, ieq] = await newDevices(
    a,
    [
      {
        devType: 4,
        devName: 'Motion1',
        dataPoints: [{ dp: 'mState', dn: 'Occupancy', readonly: true }],
        properties: { volt: 3 },
      },
      { devType: 2, devName: 'RoomUnit', port: 0, dataPoints: [{ dp: 'temp', dn: 'Temperature' }] },
      {
        devType: 5,
        devName: 'IEQ1',
        dataPoints: [
          { dp: 'temp', dn: 'Temperature' },
          { dp: 'hum', dn: 'Humidity' },
        ],
      },
    ],
    a.floorId,
  );
  const [theirs] = await newDevices(b, [{ devType: 4, devName: 'Theirs', dataPoints: [{ dp: 'mState' }] }]);
  if (!motion || !io || !ieq || !theirs) throw new Error('devices missing');
  return { a, b, motion, io, ieq, theirs };
}

describe('updateDevice', () => {
  it('lets only admins of the device organization link it to a vendor account', async () => {
    const { a, b, io } = await world();
    const editor = await userWith({ [a.orgId]: 1, [b.orgId]: 2 });
    const admin = await userWith({ [a.orgId]: 2 });
    const update = (user: typeof editor, properties: Record<string, unknown>) =>
      user.call(dc('updateDevice'), { devID: io.devID, devType: 2, devUpdateObj: { properties } });
    for (const name of VENDOR_LINK_PROPERTIES) {
      expect(await update(editor, { [name]: 'vendor-device-1' }), name).toMatchObject({
        status: 403,
        body: { message: VENDOR_LINK_ADMIN_TEXT },
      });
    }
    expect((await stored(io.devID))?.properties).toEqual({});
    expect(await update(admin, { ryseShadeId: 'shade-9', volt: 3 })).toMatchObject({ status: 200 });
    // Other properties, and a link sent back as it is, stay a read/write member's to save.
    expect(await update(editor, { ryseShadeId: 'shade-9', volt: 3.1 })).toMatchObject({ status: 200 });
    expect(await update(editor, { ryseShadeId: 'shade-10' })).toMatchObject({ status: 403 });
    expect((await stored(io.devID))?.properties).toEqual({ ryseShadeId: 'shade-9', volt: 3.1 });
  });

  it('renames a device, merges properties and replaces data points, raising the version', async () => {
    const { a, motion } = await world();
    const editor = await userWith({ [a.orgId]: 1 });
    const renamed = await editor.call(dc('updateDevice'), {
      devID: motion.devID,
      devType: 4,
      devUpdateObj: { devName: ' MotionLobby ' },
      version: 0,
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { message: 'Device name updated successfully.', device: { devName: 'MotionLobby', version: 1 } },
    });
    const changed = await editor.call(dc('updateDevice'), {
      devID: motion.devID,
      devType: 4,
      devUpdateObj: { properties: { pairingMode: 1 }, dataPoints: [{ dp: 'mState', dn: 'Presence' }] },
    });
    expect(changed).toMatchObject({ status: 200, body: { message: 'Value updated successfully.' } });
    expect(await stored(motion.devID)).toMatchObject({
      devName: 'MotionLobby',
      properties: { volt: 3, pairingMode: 1 },
      dataPoints: [{ dp: 'mState', dn: 'Presence' }],
      version: 2,
      onFloor: true,
      floorID: a.floorId,
    });
  });

  it("sets the device's icon (properties.conndev) among its type's choices only, roles above 0", async () => {
    const { a, motion, io } = await world();
    const [light, thirdParty] = await newDevices(a, [
      { devType: 1, devName: 'Lights1', port: 0, properties: { volt: 3 } },
      { devType: 8, devName: 'Shade1', connDev: 'shades' },
    ]);
    if (!light || !thirdParty) throw new Error('devices missing');
    const editor = await userWith({ [a.orgId]: 1 });
    const icon = (device: { devID: string }, devType: number, conndev: string) =>
      editor.call(dc('updateDevice'), {
        devID: device.devID,
        devType,
        devUpdateObj: { properties: { conndev } },
      });
    expect(await icon(light, 1, 'node')).toMatchObject({
      status: 200,
      body: { message: 'Value updated successfully.', device: { properties: { conndev: 'node' } } },
    });
    expect((await stored(light.devID))?.properties).toMatchObject({ volt: 3, conndev: 'node' });
    expect((await icon(thirdParty, 8, 'ecobee')).status).toBe(200);
    expect((await icon(io, 2, 'node')).status).toBe(200);
    for (const [device, devType, conndev] of [
      [io, 2, 'powernode'],
      [light, 1, 'ecobee'],
      [thirdParty, 8, 'node'],
      [motion, 4, 'node'],
    ] as const) {
      expect(await icon(device, devType, conndev)).toMatchObject({
        status: 400,
        body: { message: 'This icon is not available for this device type.' },
      });
    }
    expect((await stored(light.devID))?.properties.conndev).toBe('node');
    const reader = await userWith({ [a.orgId]: 0 });
    expect(
      await reader.call(dc('updateDevice'), {
        devID: light.devID,
        devType: 1,
        devUpdateObj: { properties: { conndev: 'powernode' } },
      }),
    ).toMatchObject({ status: 403, body: { message: 'User is unAuthorized' } });
  });

  it('applies the name rules, the data-point rule and versions', async () => {
    const { a, motion } = await world();
    const editor = await userWith({ [a.orgId]: 1 });
    const update = (devUpdateObj: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      editor.call(dc('updateDevice'), { devID: motion.devID, devType: 4, devUpdateObj, ...extra });
    expect(await update({ devName: '   ' })).toMatchObject({
      status: 400,
      body: { message: 'Device name can not be empty.' },
    });
    for (const devName of ['Motion 1', 'Motion!', 'Mötion#1']) {
      expect(await update({ devName })).toMatchObject({
        status: 400,
        body: { message: 'Special Character and spaces are not allowed' },
      });
    }
    expect(await update({ dataPoints: [] })).toMatchObject({
      status: 400,
      body: { message: 'Please select data points' },
    });
    expect(await update({ dataPoints: [{ dp: 'mState', dn: 'Occu pancy' }] })).toMatchObject({
      status: 400,
      body: { message: 'Special Character and spaces are not allowed' },
    });
    // Names and keys land in exports: nothing a spreadsheet reads as a formula ('=', '+', '-', '@').
    for (const devUpdateObj of [
      { devName: '-2+3' },
      { devName: '-Lights' },
      { dataPoints: [{ dp: '=HYPERLINK("x")', dn: 'Occupancy' }] },
      { dataPoints: [{ dp: '-1', dn: 'Occupancy' }] },
      { dataPoints: [{ dp: '@SUM', dn: 'Occupancy' }] },
      { dataPoints: [{ dp: '+cmd', dn: 'Occupancy' }] },
      { dataPoints: [{ dp: 'mState', dn: '-Total' }] },
    ]) {
      expect(await update(devUpdateObj), JSON.stringify(devUpdateObj)).toMatchObject({
        status: 400,
        body: { message: 'Special Character and spaces are not allowed' },
      });
    }
    const renamedPoint = (dp: string, dn: string) =>
      editor.call(dc('updateDeviceDataPoint'), {
        devID: motion.devID,
        devType: 4,
        devUpdateObj: { dataPoints: [{ dp, dn }] },
      });
    expect(await renamedPoint('mState', '-Presence')).toMatchObject({ status: 400 });
    expect((await stored(motion.devID))?.dataPoints).toEqual([
      { dp: 'mState', dn: 'Occupancy', readonly: true },
    ]);
    expect(await update({ devName: 'Fine' }, { version: 4 })).toMatchObject({
      status: 409,
      body: {
        message: 'Someone else changed this device in the meantime. Please reload the floor and try again.',
      },
    });
    expect(await update({ devName: 'Fine' }, { devType: 5 })).toMatchObject({
      status: 400,
      body: { message: 'devType does not match the device.' },
    });
    expect((await stored(motion.devID))?.devName).toBe('Motion1');
  });

  it('decides by the role in the device organization; foreign devices are unknown devices', async () => {
    const { a, b, motion, theirs } = await world();
    const user = await userWith({ [a.orgId]: 0, [b.orgId]: 1 });
    expect(
      await user.call(dc('updateDevice'), {
        devID: motion.devID,
        devType: 4,
        devUpdateObj: { devName: 'X1' },
      }),
    ).toMatchObject({ status: 403, body: { message: 'User is unAuthorized' } });
    expect(
      (
        await user.call(dc('updateDevice'), {
          devID: theirs.devID,
          devType: 4,
          devUpdateObj: { devName: 'X1' },
        })
      ).status,
    ).toBe(200);

    const outsider = await userWith({ [b.orgId]: 2 });
    const unknown = await outsider.call(dc('updateDevice'), {
      devID: UNKNOWN_DEVICE,
      devType: 4,
      devUpdateObj: { devName: 'X1' },
    });
    expect(unknown).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
    expectSameAnswer(
      await outsider.call(dc('updateDevice'), {
        devID: motion.devID,
        devType: 4,
        devUpdateObj: { devName: 'X1' },
      }),
      unknown,
    );
    expectSameAnswer(
      await outsider.call(dc('updateDeviceDataPoint'), {
        devID: motion.devID,
        devType: 4,
        devUpdateObj: { dataPoints: [{ dp: 'mState', dn: 'X' }] },
      }),
      unknown,
    );
    expectSameAnswer(
      await outsider.call(dc('addThermistor'), {
        devID: motion.devID,
        devType: 4,
        devName: 'X',
        dataPoints: [{ dp: 'temp' }],
        childNode: { type: 'thermistor' },
      }),
      unknown,
    );
  });
});

describe('a device placed on a floor of another organization', () => {
  it('is answered like an unknown device', async () => {
    const { a, b } = await world();
    // Inconsistent data: A's device names B's floor. Nobody learns that floor from it.
    const [stray] = await newDevices(a, [{ devType: 4, devName: 'Stray' }], b.floorId);
    const editor = await userWith({ [a.orgId]: 2 });
    const unknown = await editor.call(dc('updateDevice'), {
      devID: UNKNOWN_DEVICE,
      devType: 4,
      devUpdateObj: { devName: 'X1' },
    });
    expectSameAnswer(
      await editor.call(dc('updateDevice'), {
        devID: stray?.devID,
        devType: 4,
        devUpdateObj: { devName: 'X1' },
      }),
      unknown,
    );
  });
});

describe('updateDeviceDataPoint', () => {
  it('renames data points by their key and refuses unknown keys and bad names', async () => {
    const { a, ieq } = await world();
    const editor = await userWith({ [a.orgId]: 1 });
    const update = (dataPoints: Record<string, unknown>[]) =>
      editor.call(dc('updateDeviceDataPoint'), {
        devID: ieq.devID,
        devType: 5,
        devUpdateObj: { dataPoints },
      });
    expect(await update([{ dp: 'hum', dn: 'RelativeHumidity' }])).toMatchObject({
      status: 200,
      body: { message: 'Value updated successfully.', device: { version: 1 } },
    });
    expect((await stored(ieq.devID))?.dataPoints).toEqual([
      { dp: 'temp', dn: 'Temperature' },
      { dp: 'hum', dn: 'RelativeHumidity' },
    ]);
    expect(await update([{ dp: 'co2', dn: 'CO2' }])).toMatchObject({
      status: 400,
      body: { message: "The device has no data point 'co2'." },
    });
    expect(await update([{ dp: 'hum', dn: 'Relative Humidity' }])).toMatchObject({
      status: 400,
      body: { message: 'Special Character and spaces are not allowed' },
    });
    const viewer = await userWith({ [a.orgId]: 0 });
    expect(
      await viewer.call(dc('updateDeviceDataPoint'), {
        devID: ieq.devID,
        devType: 5,
        devUpdateObj: { dataPoints: [{ dp: 'hum', dn: 'H' }] },
      }),
    ).toMatchObject({ status: 403 });
  });
});

describe('addThermistor', () => {
  it('adds a thermistor child node to an IO device', async () => {
    const { a, io, motion } = await world();
    const editor = await userWith({ [a.orgId]: 1 });
    const added = await editor.call(dc('addThermistor'), {
      devID: io.devID,
      devType: 2,
      devName: 'RoomUnit',
      dataPoints: [{ dp: 'temp', dn: 'PipeTemp' }],
      childNode: { type: 'thermistor', devID: 'TH-1' },
    });
    expect(added).toMatchObject({
      status: 200,
      body: {
        message: 'Thermistor added successfully.',
        device: {
          childNode: { type: 'thermistor', devID: 'TH-1', dataPoints: [{ dp: 'temp', dn: 'PipeTemp' }] },
          version: 1,
        },
      },
    });
    expect((await stored(io.devID))?.childNode).toEqual({
      type: 'thermistor',
      devID: 'TH-1',
      dataPoints: [{ dp: 'temp', dn: 'PipeTemp' }],
    });
    expect(
      await editor.call(dc('addThermistor'), {
        devID: motion.devID,
        devType: 4,
        devName: 'Motion1',
        dataPoints: [{ dp: 'temp' }],
        childNode: { type: 'thermistor' },
      }),
    ).toMatchObject({
      status: 400,
      body: { message: 'A thermistor can only be added to an IO device (type 2).' },
    });
    expect(
      await editor.call(dc('addThermistor'), {
        devID: io.devID,
        devType: 2,
        devName: 'Room Unit',
        dataPoints: [{ dp: 'temp' }],
        childNode: { type: 'thermistor' },
      }),
    ).toMatchObject({ status: 400, body: { message: 'Special Character and spaces are not allowed' } });
  });
});
