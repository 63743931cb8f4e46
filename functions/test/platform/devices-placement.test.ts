import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FloorDevicesAnswer } from '@argentum/contracts';
import { MAX_FLOOR_CHANGES } from '@argentum/contracts/requests';
import {
  dc,
  DEVICE_NOT_FOUND,
  expectSameAnswer,
  FLOOR_NOT_FOUND,
  newDevices,
  newPlace,
  stored,
  storedFloor,
  streams,
  UNKNOWN_DEVICE,
  UNKNOWN_ID,
  userWith,
} from './devices-fixtures';

/** Edit mode's Save and the single-device placement calls: all or nothing, versions, rules, scope. */

afterEach(() => streams('resume'));

const at = (x: number, y: number) => ({ x, y });

async function world() {
  const a = await newPlace('Alpha');
  const b = await newPlace('Beta');
  const off = await newDevices(a, [
    { devType: 4, devName: 'Motion1', dataPoints: [{ dp: 'mState', dn: 'Occupancy' }] },
    { devType: 1, devName: 'Light1', port: 0 },
    { devType: 5, devName: 'IEQ1', dataPoints: [] },
    { devType: 1, devName: '' },
    { devType: 0, devName: 'Gateway1' },
  ]);
  const on = await newDevices(
    a,
    [
      { devType: 6, devName: 'Switch1' },
      { devType: 4, devName: 'Grouped', groupNumber: 1234 },
    ],
    a.floorId,
  );
  const foreign = await newDevices(b, [{ devType: 4, devName: 'Theirs' }]);
  return { a, b, off, on, foreign };
}

describe('updateOnFloorStatus (edit mode Save)', () => {
  it('places, moves and removes devices in one write, and recomputes the floor device types', async () => {
    const { a, off, on } = await world();
    const admin = await userWith({ [a.orgId]: 2 });
    const [motion, light, ieq] = off;
    const result = await admin.call<{
      message: string;
      devices: { devID: string; version: number }[];
      floorDevTypes: number[];
    }>(dc('updateOnFloorStatus'), {
      floorID: a.floorId,
      onFloorStatus: true,
      dropDevicesList: [
        { devID: motion?.devID, floorOrigin: at(0.25, 0.75), version: 0 },
        { devID: light?.devID, floorOrigin: at(0.5, 0.5), devName: 'LightLobby', port: 2 },
        { devID: ieq?.devID, floorOrigin: at(1, 0), dataPoints: [{ dp: 'temp', dn: 'Temperature' }] },
        { devID: on[0]?.devID, onFloor: false },
      ],
    });
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('Floor plan updated successfully.');
    expect(result.body.floorDevTypes).toEqual([1, 4, 5]);
    expect(result.body.devices.map((d) => d.version)).toEqual([1, 1, 1, 1]);

    expect(await stored(motion?.devID ?? '')).toMatchObject({
      onFloor: true,
      floorID: a.floorId,
      buildID: a.buildId,
      floorOrigin: at(0.25, 0.75),
      version: 1,
    });
    expect(await stored(light?.devID ?? '')).toMatchObject({ devName: 'LightLobby', port: 2, onFloor: true });
    expect(await stored(ieq?.devID ?? '')).toMatchObject({ dataPoints: [{ dp: 'temp', dn: 'Temperature' }] });
    const removed = await stored(on[0]?.devID ?? '');
    expect(removed).toMatchObject({ onFloor: false, version: 1 });
    expect(removed?.floorID).toBeUndefined();
    expect(removed?.floorOrigin).toBeUndefined();
    expect(await storedFloor(a)).toMatchObject({ floorDevTypes: [1, 4, 5], version: 0 });

    // The floor view shows it, and the tile list no longer holds the placed devices.
    const tiles = await admin.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: a.floorId,
      orgID: a.orgId,
      onFloor: false,
    });
    expect(tiles.body.devices.map((d) => d.devName).sort()).toEqual(['', 'Gateway1', 'Switch1']);

    // A move keeps the name and port, with the new position.
    expect(
      (
        await admin.call(dc('updateOnFloorStatus'), {
          floorID: a.floorId,
          onFloorStatus: true,
          dropDevicesList: [{ devID: motion?.devID, floorOrigin: at(0.3, 0.3), version: 1 }],
        })
      ).status,
    ).toBe(200);
    expect(await stored(motion?.devID ?? '')).toMatchObject({ floorOrigin: at(0.3, 0.3), version: 2 });
  });

  it('is all or nothing: one bad entry and nothing changes', async () => {
    const { a, off } = await world();
    const admin = await userWith({ [a.orgId]: 2 });
    const [motion, light, ieq, unnamed] = off;
    const save = (dropDevicesList: Record<string, unknown>[]) =>
      admin.call(dc('updateOnFloorStatus'), { floorID: a.floorId, onFloorStatus: true, dropDevicesList });
    const good = { devID: motion?.devID, floorOrigin: at(0.2, 0.2) };

    expect(await save([good, { devID: unnamed?.devID, floorOrigin: at(0.1, 0.1) }])).toMatchObject({
      status: 400,
      body: { message: 'Device name and port are required' },
    });
    expect(await save([good, { devID: unnamed?.devID, floorOrigin: at(0.1, 0.1), port: 1 }])).toMatchObject({
      status: 400,
      body: { message: 'Device name and port are required' },
    });
    expect(
      await save([good, { devID: motion?.devID, floorOrigin: at(0.1, 0.1), devName: '  ' }]),
    ).toMatchObject({
      status: 400,
    });
    expect(await save([{ ...good, devName: ' ' }])).toMatchObject({
      status: 400,
      body: { message: 'Device name is required' },
    });
    expect(await save([good, { devID: ieq?.devID, floorOrigin: at(0.1, 0.1) }])).toMatchObject({
      status: 400,
      body: { message: 'Please select data points' },
    });
    expect(
      await save([good, { devID: light?.devID, floorOrigin: at(0.1, 0.1), devName: 'Light 1' }]),
    ).toMatchObject({ status: 400, body: { message: 'Special Character and spaces are not allowed' } });
    expect(await save([good, { devID: light?.devID }])).toMatchObject({
      status: 400,
      body: { message: 'floorOrigin is required to place a device on the floor.' },
    });
    expect(await save([good, { devID: UNKNOWN_DEVICE, floorOrigin: at(0.1, 0.1) }])).toMatchObject({
      status: 404,
      body: DEVICE_NOT_FOUND,
    });
    expect(await save([good, { devID: light?.devID, floorOrigin: at(0.1, 0.1), version: 7 }])).toMatchObject({
      status: 409,
    });
    // Positions are relative to the plan.
    expect((await save([{ ...good, floorOrigin: at(1.5, 0.2) }])).status).toBe(400);

    // Untouched: still off the floor, still without a version (counted as 0).
    for (const device of off) {
      const current = await stored(device.devID);
      expect(current?.onFloor).toBe(false);
      expect(current?.version).toBeUndefined();
    }
    expect((await storedFloor(a))?.floorDevTypes).toEqual([]);
  });

  it("takes the specification's body, {dropDevicesList, onFloorStatus}, the floor named by its entries", async () => {
    const { a, b, off, on } = await world();
    const admin = await userWith({ [a.orgId]: 2, [b.orgId]: 2 });
    const [motion, light] = off;
    const save = (body: Record<string, unknown>) => admin.call(dc('updateOnFloorStatus'), body);
    const entry = (devID: string | undefined, more: Record<string, unknown> = {}) => ({
      devID,
      floorOrigin: at(0.4, 0.6),
      ...more,
    });

    // Nothing names the floor, the entries name two, or a building the floor is not in: nothing changes.
    expect(await save({ onFloorStatus: true, dropDevicesList: [entry(motion?.devID)] })).toMatchObject({
      status: 400,
      body: { message: 'floorID is required: the floor the devices are placed on or taken off.' },
    });
    const twoFloors = {
      onFloorStatus: true,
      dropDevicesList: [
        entry(motion?.devID, { floorID: a.floorId }),
        entry(light?.devID, { floorID: a.floor2Id }),
      ],
    };
    expect(await save(twoFloors)).toMatchObject({
      status: 400,
      body: { message: 'All devices of one save must be placed on or taken off one floor (floorID).' },
    });
    expect(
      await save({
        floorID: a.floor2Id,
        onFloorStatus: true,
        dropDevicesList: [entry(motion?.devID, { floorID: a.floorId })],
      }),
    ).toMatchObject({ status: 400 });
    expectSameAnswer(
      await save({
        onFloorStatus: true,
        dropDevicesList: [entry(motion?.devID, { floorID: a.floorId, buildID: b.buildId })],
      }),
      await save({ onFloorStatus: true, dropDevicesList: [entry(motion?.devID, { floorID: UNKNOWN_ID })] }),
    );
    expect((await stored(motion?.devID ?? ''))?.onFloor).toBe(false);

    // Each entry a device with its floor and building, as the specification's client sends them.
    const placed = await save({
      onFloorStatus: true,
      dropDevicesList: [entry(motion?.devID, { floorID: a.floorId, buildID: a.buildId, version: 0 })],
    });
    expect(placed).toMatchObject({ status: 200, body: { floorDevTypes: [4, 6] } });
    expect(await stored(motion?.devID ?? '')).toMatchObject({
      onFloor: true,
      floorID: a.floorId,
      version: 1,
    });
    const removed = await save({
      onFloorStatus: false,
      dropDevicesList: [{ devID: on[0]?.devID, floorID: a.floorId, buildID: a.buildId }],
    });
    expect(removed).toMatchObject({ status: 200, body: { floorDevTypes: [4] } });
    expect((await stored(on[0]?.devID ?? ''))?.onFloor).toBe(false);
  });

  it('refuses taking a grouped device off, a device not on the floor, and a stale version', async () => {
    const { a, off, on } = await world();
    const admin = await userWith({ [a.orgId]: 2 });
    const save = (dropDevicesList: Record<string, unknown>[]) =>
      admin.call(dc('updateOnFloorStatus'), { floorID: a.floorId, onFloorStatus: false, dropDevicesList });
    expect(await save([{ devID: on[1]?.devID }])).toMatchObject({
      status: 400,
      body: { message: 'Please ungroup the device first to remove device.' },
    });
    expect(await save([{ devID: off[0]?.devID }])).toMatchObject({
      status: 409,
      body: { message: 'This device is not on this floor.' },
    });
    expect(await save([{ devID: on[0]?.devID, version: 3 }])).toMatchObject({
      status: 409,
      body: {
        message: 'Someone else changed this device in the meantime. Please reload the floor and try again.',
      },
    });
    expect(await save([{ devID: on[0]?.devID, version: 0 }])).toMatchObject({ status: 200 });
    // The version the client saw is now old.
    expect(
      await admin.call(dc('updateOnFloorStatus'), {
        floorID: a.floorId,
        onFloorStatus: true,
        dropDevicesList: [{ devID: on[0]?.devID, version: 0, floorOrigin: at(0.5, 0.5) }],
      }),
    ).toMatchObject({ status: 409 });
  });

  it('places a gateway only with role 3 in its organization', async () => {
    const { a, b, off } = await world();
    const gateway = off[4];
    const body = {
      floorID: a.floorId,
      onFloorStatus: true,
      dropDevicesList: [{ devID: gateway?.devID, floorOrigin: at(0.5, 0.5) }],
    };
    // Role 3 elsewhere does not count.
    const admin = await userWith({ [a.orgId]: 2, [b.orgId]: 3 });
    expect(await admin.call(dc('updateOnFloorStatus'), body)).toMatchObject({
      status: 403,
      body: { message: 'Only the top-level role (3) can place, move or remove a gateway.' },
    });
    expect((await stored(gateway?.devID ?? ''))?.onFloor).toBe(false);
    const owner = await userWith({ [a.orgId]: 3 });
    expect((await owner.call(dc('updateOnFloorStatus'), body)).status).toBe(200);
    expect((await storedFloor(a))?.floorDevTypes).toEqual([0, 4, 6]);
  });

  it('answers foreign floors and devices like unknown ones, and decides by the role in the organization', async () => {
    const { a, b, off, foreign } = await world();
    const user = await userWith({ [a.orgId]: 2, [b.orgId]: 0 });
    const save = (floorID: string, devID: string) =>
      user.call(dc('updateOnFloorStatus'), {
        floorID,
        onFloorStatus: true,
        dropDevicesList: [{ devID, floorOrigin: at(0.5, 0.5) }],
      });
    const unknownFloor = await save(UNKNOWN_ID, off[0]?.devID ?? '');
    expect(unknownFloor).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });
    // Role 0 in B: B's floor is there, but the caller may not edit it.
    expect(await save(b.floorId, foreign[0]?.devID ?? '')).toMatchObject({
      status: 403,
      body: { message: 'User is unAuthorized' },
    });
    const unknownDevice = await save(a.floorId, UNKNOWN_DEVICE);
    expect(unknownDevice).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
    // B's device on A's floor: a device of another organization is not found here.
    expectSameAnswer(await save(a.floorId, foreign[0]?.devID ?? ''), unknownDevice);

    const outsider = await userWith({ [b.orgId]: 2 });
    const outsiderSave = (floorID: string, devID: string) =>
      outsider.call(dc('updateOnFloorStatus'), {
        floorID,
        onFloorStatus: true,
        dropDevicesList: [{ devID, floorOrigin: at(0.5, 0.5) }],
      });
    expectSameAnswer(await outsiderSave(a.floorId, off[0]?.devID ?? ''), unknownFloor);
    expectSameAnswer(await outsiderSave(b.floorId, off[0]?.devID ?? ''), unknownDevice);
    const viewer = await userWith({ [a.orgId]: 1 });
    expect(
      await viewer.call(dc('updateOnFloorStatus'), {
        floorID: a.floorId,
        onFloorStatus: true,
        dropDevicesList: [{ devID: off[0]?.devID, floorOrigin: at(0.5, 0.5) }],
      }),
    ).toMatchObject({ status: 403 });
  });

  it('commits the largest save (98 devices, the floor and its tree summary) in one transaction', async () => {
    const a = await newPlace('Large');
    const many = await newDevices(
      a,
      Array.from({ length: MAX_FLOOR_CHANGES }, (_, i) => ({
        devType: i % 2 === 0 ? 4 : 6,
        devName: `Sensor${i}`,
      })),
    );
    const admin = await userWith({ [a.orgId]: 2 });
    const result = await admin.call<{ devices: unknown[]; floorDevTypes: number[] }>(
      dc('updateOnFloorStatus'),
      {
        floorID: a.floorId,
        onFloorStatus: true,
        dropDevicesList: many.map((d, i) => ({ devID: d.devID, floorOrigin: at(i / 100, 0.5) })),
      },
    );
    expect(result.status).toBe(200);
    expect(result.body.devices).toHaveLength(MAX_FLOOR_CHANGES);
    expect(result.body.floorDevTypes).toEqual([4, 6]);
    const floor = await admin.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: a.floorId,
      orgID: a.orgId,
    });
    expect(floor.body.devices).toHaveLength(MAX_FLOOR_CHANGES);
    // One more than a transaction holds is refused by the schema.
    expect(
      (
        await admin.call(dc('updateOnFloorStatus'), {
          floorID: a.floorId,
          onFloorStatus: false,
          dropDevicesList: [...many, many[0]].map((d) => ({ devID: d?.devID })),
        })
      ).status,
    ).toBe(400);
  });

  it('a floor whose delete is pending refuses devices (410); once swept it is gone (404)', async () => {
    const admin = await userWith({});
    // The sweeper is held back so the delete stays pending; another file resuming the stream meanwhile
    // sweeps the floor, so the scenario is tried on a fresh floor until it is seen pending.
    await vi.waitFor(
      async () => {
        const { a, off } = await world();
        const owner = await userWith({ [a.orgId]: 3 });
        await streams('pause');
        const deleted = await owner.call('/api/dashboard/deleteOrgBuildFloor', {
          id: a.floorId,
          type: 'floor',
        });
        expect(deleted.status).toBe(200);
        const result = await owner.call(dc('updateOnFloorStatus'), {
          floorID: a.floorId,
          onFloorStatus: true,
          dropDevicesList: [{ devID: off[0]?.devID, floorOrigin: at(0.5, 0.5) }],
        });
        const floor = await storedFloor(a);
        if (!floor) throw new Error('the floor was swept meanwhile: try again');
        expect(result).toMatchObject({
          status: 410,
          body: {
            message: 'This floor is being deleted: devices can no longer be placed on it or taken off it.',
          },
        });
        expect((await stored(off[0]?.devID ?? ''))?.onFloor).toBe(false);
        // Readers see the floor as gone.
        expect(
          await owner.call(dc('getAllDevicesDataForFloorPlan'), { floorID: a.floorId, orgID: a.orgId }),
        ).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });
        await streams('resume');
        await vi.waitFor(async () => expect(await storedFloor(a)).toBeUndefined(), {
          timeout: 30_000,
          interval: 100,
        });
        expect(
          await owner.call(dc('updateOnFloorStatus'), {
            floorID: a.floorId,
            onFloorStatus: true,
            dropDevicesList: [{ devID: off[0]?.devID, floorOrigin: at(0.5, 0.5) }],
          }),
        ).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });
      },
      { timeout: 50_000, interval: 10 },
    );
    expect(admin.userId).toEqual(expect.any(String));
  });
});

describe('updateDeviceBuildFloorID and removeDeviceFromFloor', () => {
  it('places a device on a floor, moves it to another floor (both floors updated), and takes it off', async () => {
    const { a, off } = await world();
    const admin = await userWith({ [a.orgId]: 2 });
    const light = off[1];
    const placed = await admin.call<{ devices: { version: number }[]; floorDevTypes: number[] }>(
      dc('updateDeviceBuildFloorID'),
      { devID: light?.devID, floorID: a.floor2Id, buildID: a.buildId, version: 0 },
    );
    expect(placed).toMatchObject({
      status: 200,
      body: { message: 'Device placed on the floor.', floorDevTypes: [1] },
    });
    expect(await stored(light?.devID ?? '')).toMatchObject({
      floorID: a.floor2Id,
      floorOrigin: at(0.5, 0.5),
      version: 1,
    });

    const moved = await admin.call(dc('updateDeviceBuildFloorID'), {
      devID: light?.devID,
      floorID: a.floorId,
      buildID: a.buildId,
      floorOrigin: at(0.9, 0.1),
    });
    expect(moved).toMatchObject({ status: 200, body: { floorDevTypes: [1, 4, 6] } });
    expect((await storedFloor(a, a.floor2Id))?.floorDevTypes).toEqual([]);
    expect(await stored(light?.devID ?? '')).toMatchObject({
      floorID: a.floorId,
      floorOrigin: at(0.9, 0.1),
      version: 2,
    });

    // The building must be the floor's.
    expect(
      await admin.call(dc('updateDeviceBuildFloorID'), {
        devID: light?.devID,
        floorID: a.floorId,
        buildID: UNKNOWN_ID,
      }),
    ).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });

    const removed = await admin.call(dc('removeDeviceFromFloor'), {
      devID: light?.devID,
      floorID: a.floorId,
      version: 2,
    });
    expect(removed).toMatchObject({
      status: 200,
      body: { message: 'Device removed from the floor.', floorDevTypes: [4, 6] },
    });
    expect(await stored(light?.devID ?? '')).toMatchObject({ onFloor: false, version: 3 });
    expect(
      await admin.call(dc('removeDeviceFromFloor'), { devID: light?.devID, floorID: a.floorId }),
    ).toMatchObject({ status: 409, body: { message: 'This device is not on this floor.' } });
  });

  it('refuses a grouped device, an unnamed one, stale versions, foreign ids and low roles', async () => {
    const { a, b, off, on, foreign } = await world();
    const admin = await userWith({ [a.orgId]: 2, [b.orgId]: 1 });
    expect(
      await admin.call(dc('removeDeviceFromFloor'), { devID: on[1]?.devID, floorID: a.floorId }),
    ).toMatchObject({
      status: 400,
      body: { message: 'Please ungroup the device first to remove device.' },
    });
    expect(
      await admin.call(dc('removeDeviceFromFloor'), { devID: on[0]?.devID, floorID: a.floorId, version: 5 }),
    ).toMatchObject({
      status: 409,
    });
    expect(
      await admin.call(dc('updateDeviceBuildFloorID'), {
        devID: off[3]?.devID,
        floorID: a.floorId,
        buildID: a.buildId,
      }),
    ).toMatchObject({ status: 400, body: { message: 'Device name and port are required' } });
    const unknown = await admin.call(dc('removeDeviceFromFloor'), {
      devID: UNKNOWN_DEVICE,
      floorID: a.floorId,
    });
    expect(unknown).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
    expectSameAnswer(
      await admin.call(dc('removeDeviceFromFloor'), { devID: foreign[0]?.devID, floorID: a.floorId }),
      unknown,
    );
    // Role 1 in B is not enough to place B's devices.
    expect(
      await admin.call(dc('updateDeviceBuildFloorID'), {
        devID: foreign[0]?.devID,
        floorID: b.floorId,
        buildID: b.buildId,
      }),
    ).toMatchObject({ status: 403 });
    const outsider = await userWith({ [b.orgId]: 2 });
    const foreignFloor = await outsider.call(dc('removeDeviceFromFloor'), {
      devID: on[0]?.devID,
      floorID: a.floorId,
    });
    expectSameAnswer(
      foreignFloor,
      await outsider.call(dc('removeDeviceFromFloor'), { devID: on[0]?.devID, floorID: UNKNOWN_ID }),
    );
    expect(foreignFloor).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });
    const untouched = await stored(on[0]?.devID ?? '');
    expect(untouched?.onFloor).toBe(true);
    expect(untouched?.version).toBeUndefined();
  });
});
