import { describe, expect, it } from 'vitest';
import type { FloorDevicesAnswer, SensorsCountAnswer } from '@argentum/contracts';
import {
  dc,
  expectSameAnswer,
  FLOOR_NOT_FOUND,
  newDevices,
  newPlace,
  UNKNOWN_ID,
  userWith,
} from './devices-fixtures';

/** The floor view's reads: its devices, the off-floor tiles, counts, offline lists and icon sizes. */

const minutes = (n: number) => n * 60_000;

async function world() {
  const a = await newPlace('Alpha');
  const b = await newPlace('Beta');
  const now = Date.now();
  const onA = await newDevices(
    a,
    [
      // Sensors report every 5 minutes: offline after 3 missed reports (15 minutes).
      { devType: 4, devName: 'MotionA', lastSeen: now - minutes(2), latest: { mState: 1 } },
      { devType: 4, devName: 'MotionB', lastSeen: now - minutes(16), latest: { mState: 1 } },
      { devType: 5, devName: 'IEQA', lastSeen: now - minutes(14), latest: { temp: 22 } },
      // Lights report every 10 minutes (offline after 30); never heard is offline.
      { devType: 1, devName: 'LightA', port: 0, lastSeen: now - minutes(29) },
      { devType: 1, devName: 'LightB', port: 1 },
    ],
    a.floorId,
  );
  const onA2 = await newDevices(a, [{ devType: 5, devName: 'IEQUpstairs' }], a.floor2Id);
  const offA = await newDevices(a, [{ devType: 4, devName: 'Spare', lastSeen: now }]);
  const onB = await newDevices(b, [{ devType: 1, devName: 'LightForeign', port: 0 }], b.floorId);
  return { a, b, onA, onA2, offA, onB };
}

describe('getAllDevicesDataForFloorPlan', () => {
  it('names the gateways its devices report through elsewhere, with their status and floor; a foreign one is none', async () => {
    const a = await newPlace('Gateways');
    const b = await newPlace('GatewaysForeign');
    const now = Date.now();
    const [upstairs] = await newDevices(a, [{ devType: 0, devName: 'GatewayUp', lastSeen: now }], a.floor2Id);
    // Never heard from, on no floor: offline.
    const [spare] = await newDevices(a, [{ devType: 0, devName: 'GatewaySpare' }]);
    const [foreign] = await newDevices(b, [{ devType: 0, devName: 'GatewayB', lastSeen: now }], b.floorId);
    const [notGateway] = await newDevices(a, [{ devType: 5, devName: 'IEQUp', lastSeen: now }], a.floor2Id);
    const [here] = await newDevices(a, [{ devType: 0, devName: 'GatewayHere', lastSeen: now }], a.floorId);
    if (!upstairs || !spare || !foreign || !notGateway || !here) throw new Error('devices not seeded');
    await newDevices(
      a,
      [
        { devType: 5, devName: 'ViaUp', gatewayID: upstairs.devID },
        { devType: 4, devName: 'ViaUpToo', gatewayID: upstairs.devID },
        { devType: 5, devName: 'ViaSpare', gatewayID: spare.devID },
        { devType: 5, devName: 'ViaForeign', gatewayID: foreign.devID },
        { devType: 5, devName: 'ViaNotGateway', gatewayID: notGateway.devID },
        { devType: 5, devName: 'ViaUnknown', gatewayID: UNKNOWN_ID },
        { devType: 5, devName: 'ViaHere', gatewayID: here.devID },
      ],
      a.floorId,
    );
    // A member of both organizations: the other organization's gateway is still not this floor's.
    const viewer = await userWith({ [a.orgId]: 0, [b.orgId]: 2 });
    const read = (body: Record<string, unknown>) =>
      viewer.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), { orgID: a.orgId, ...body });
    const result = await read({ floorID: a.floorId });
    expect(result.status).toBe(200);
    expect(result.body.gatewaysElsewhere).toEqual([
      { devID: spare.devID, devName: 'GatewaySpare', online: false },
      { devID: upstairs.devID, devName: 'GatewayUp', online: true, floorName: 'Level 2' },
    ]);
    // A floor whose devices report through none elsewhere, and the off-floor tiles, name none.
    expect((await read({ floorID: a.floor2Id })).body.gatewaysElsewhere).toBeUndefined();
    expect((await read({ floorID: a.floorId, onFloor: false })).body.gatewaysElsewhere).toBeUndefined();
  });

  it("answers a floor's devices with online state, versions and the caller's icon sizes", async () => {
    const { a, b, onA } = await world();
    const viewer = await userWith({ [a.orgId]: 0, [b.orgId]: 2 });
    const result = await viewer.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: a.floorId,
      orgID: a.orgId,
    });
    expect(result.status).toBe(200);
    expect(result.body.sensorSizes).toEqual({});
    const byName = Object.fromEntries(result.body.devices.map((d) => [d.devName, d]));
    expect(Object.keys(byName).sort()).toEqual(['IEQA', 'LightA', 'LightB', 'MotionA', 'MotionB']);
    expect(byName.MotionA).toMatchObject({
      devID: onA[0]?.devID,
      devType: 4,
      orgID: a.orgId,
      buildID: a.buildId,
      floorID: a.floorId,
      onFloor: true,
      floorOrigin: { x: 0.1, y: 0.5 },
      latest: { mState: 1 },
      online: true,
      version: 0,
    });
    expect(byName.MotionB?.online).toBe(false);
    expect(byName.IEQA?.online).toBe(true);
    expect(byName.LightA?.online).toBe(true);
    expect(byName.LightB?.online).toBe(false);

    // Icon sizes are the caller's own, per floor and type.
    expect(
      await viewer.call(`/api/dashboard/updateSensorSize`, { value: 1.5, devType: 4, floorId: a.floorId }),
    ).toMatchObject({ status: 200, body: { message: 'Value save successfuly.', sensorSizes: { '4': 1.5 } } });
    const again = await viewer.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: a.floorId,
      orgID: a.orgId,
      onFloor: true,
    });
    expect(again.body.sensorSizes).toEqual({ '4': 1.5 });
    const other = await userWith({ [a.orgId]: 1 });
    const theirs = await other.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: a.floorId,
      orgID: a.orgId,
    });
    expect(theirs.body.sensorSizes).toEqual({});
  });

  it("onFloor false answers the organization's devices that are on no floor (edit mode's tiles)", async () => {
    const { a, offA } = await world();
    const admin = await userWith({ [a.orgId]: 2 });
    const result = await admin.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: a.floorId,
      orgID: a.orgId,
      onFloor: false,
    });
    expect(result.status).toBe(200);
    expect(result.body.devices.map((d) => d.devID)).toEqual(offA.map((d) => d.devID));
    expect(result.body.devices[0]).toMatchObject({ onFloor: false, online: true, version: 0 });
    expect(result.body.devices[0]?.floorOrigin).toBeUndefined();
  });

  it('a foreign floor, a floor named with another organization and an unknown floor get the same 404', async () => {
    const { a, b } = await world();
    const user = await userWith({ [a.orgId]: 2 });
    const unknown = await user.call(dc('getAllDevicesDataForFloorPlan'), {
      floorID: UNKNOWN_ID,
      orgID: a.orgId,
    });
    expect(unknown).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });
    expectSameAnswer(
      await user.call(dc('getAllDevicesDataForFloorPlan'), { floorID: b.floorId, orgID: b.orgId }),
      unknown,
    );
    expectSameAnswer(
      await user.call(dc('getAllDevicesDataForFloorPlan'), { floorID: b.floorId, orgID: a.orgId }),
      unknown,
    );
    expectSameAnswer(
      await user.call(dc('getAllDevicesDataForFloorPlan'), { floorID: a.floorId, orgID: b.orgId }),
      unknown,
    );
  });
});

describe('getAnalyticsSensorsCount', () => {
  it("counts a floor's devices: online, offline, per type and occupied motion sensors", async () => {
    const { a, b } = await world();
    const viewer = await userWith({ [a.orgId]: 0 });
    const result = await viewer.call<SensorsCountAnswer>(dc('getAnalyticsSensorsCount'), {
      floorID: a.floorId,
      buildID: a.buildId,
      orgID: a.orgId,
    });
    expect(result).toMatchObject({
      status: 200,
      body: { total: 5, online: 3, offline: 2, byType: { '1': 2, '4': 2, '5': 1 }, occupied: 1 },
    });
    const unknown = await viewer.call(dc('getAnalyticsSensorsCount'), {
      floorID: UNKNOWN_ID,
      buildID: a.buildId,
      orgID: a.orgId,
    });
    expect(unknown).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });
    expectSameAnswer(
      await viewer.call(dc('getAnalyticsSensorsCount'), {
        floorID: b.floorId,
        buildID: b.buildId,
        orgID: b.orgId,
      }),
      unknown,
    );
    // The floor must be in the building named.
    expectSameAnswer(
      await viewer.call(dc('getAnalyticsSensorsCount'), {
        floorID: a.floorId,
        buildID: UNKNOWN_ID,
        orgID: a.orgId,
      }),
      unknown,
    );
  });
});

describe('getOfflineSensors', () => {
  it('lists the offline devices of a floor, a building and an organization', async () => {
    const { a, b, onA, onA2 } = await world();
    const viewer = await userWith({ [a.orgId]: 0 });
    const names = (r: { body: { devices?: { devName: string }[] } }) =>
      (r.body.devices ?? []).map((d) => d.devName);

    const floor = await viewer.call<{ devices: { devName: string }[]; count: number }>(
      dc('getOfflineSensors'),
      {
        orgID: a.orgId,
        floorID: a.floorId,
      },
    );
    expect(floor.status).toBe(200);
    expect(names(floor)).toEqual(['LightB', 'MotionB']);
    expect(floor.body.count).toBe(2);

    const building = await viewer.call(dc('getOfflineSensors'), { orgID: a.orgId, buildID: a.buildId });
    expect(names(building)).toEqual(['IEQUpstairs', 'LightB', 'MotionB']);
    const org = await viewer.call(dc('getOfflineSensors'), { orgID: a.orgId });
    expect(names(org)).toEqual(['IEQUpstairs', 'LightB', 'MotionB']);
    expect(onA.length + onA2.length).toBe(6);

    const unknownOrg = await viewer.call(dc('getOfflineSensors'), { orgID: UNKNOWN_ID });
    expect(unknownOrg).toMatchObject({
      status: 404,
      body: { message: 'This organization does not exist (it may have been deleted).' },
    });
    expectSameAnswer(await viewer.call(dc('getOfflineSensors'), { orgID: b.orgId }), unknownOrg);
    const unknownBuilding = await viewer.call(dc('getOfflineSensors'), {
      orgID: a.orgId,
      buildID: UNKNOWN_ID,
    });
    expect(unknownBuilding).toMatchObject({
      status: 404,
      body: { message: 'This building does not exist (it may have been deleted).' },
    });
    expectSameAnswer(
      await viewer.call(dc('getOfflineSensors'), { orgID: b.orgId, buildID: b.buildId }),
      unknownBuilding,
    );
    expectSameAnswer(
      await viewer.call(dc('getOfflineSensors'), { orgID: b.orgId, floorID: b.floorId }),
      await viewer.call(dc('getOfflineSensors'), { orgID: a.orgId, floorID: UNKNOWN_ID }),
    );
  });
});

describe('updateSensorSize', () => {
  it('saves per user, floor and type within the range of the type', async () => {
    const { a, b } = await world();
    const user = await userWith({ [a.orgId]: 0 });
    const save = (body: Record<string, unknown>) => user.call('/api/dashboard/updateSensorSize', body);
    expect(await save({ userID: user.userId, value: 0.5, devType: 1, floorId: a.floorId })).toMatchObject({
      status: 200,
      body: { sensorSizes: { '1': 0.5 } },
    });
    expect(await save({ value: 2, devType: 5, floorId: a.floorId })).toMatchObject({
      status: 200,
      body: { sensorSizes: { '1': 0.5, '5': 2 } },
    });
    // Lights go down to 0.5, every other type to 1.
    expect(await save({ value: 0.5, devType: 4, floorId: a.floorId })).toMatchObject({
      status: 400,
      body: { message: 'The icon size must be between 1 and 2.' },
    });
    expect((await save({ value: 2.5, devType: 4, floorId: a.floorId })).status).toBe(400);
    expect((await save({ value: 1.25, devType: 4, floorId: a.floorId })).status).toBe(400);

    // Another user's id in the body, a foreign floor and an unknown one: 404.
    const other = await userWith({ [a.orgId]: 0 });
    expect(await save({ userID: other.userId, value: 1, devType: 4, floorId: a.floorId })).toMatchObject({
      status: 404,
      body: { message: 'User not found.' },
    });
    expectSameAnswer(
      await save({ userID: other.userId, value: 1, devType: 4, floorId: a.floorId }),
      await save({ userID: UNKNOWN_ID, value: 1, devType: 4, floorId: a.floorId }),
    );
    const unknownFloor = await save({ value: 1, devType: 4, floorId: UNKNOWN_ID });
    expect(unknownFloor).toMatchObject({ status: 404, body: FLOOR_NOT_FOUND });
    expectSameAnswer(await save({ value: 1, devType: 4, floorId: b.floorId }), unknownFloor);

    const theirs = await other.call<FloorDevicesAnswer>(dc('getAllDevicesDataForFloorPlan'), {
      floorID: a.floorId,
      orgID: a.orgId,
    });
    expect(theirs.body.sensorSizes).toEqual({});
  });
});
