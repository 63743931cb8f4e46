import { describe, expect, it } from 'vitest';
import {
  dc,
  DEVICE_NOT_FOUND,
  expectSameAnswer,
  newDevices,
  newGroup,
  newPlace,
  stored,
  storedGroup,
  UNKNOWN_DEVICE,
  userWith,
} from './devices-fixtures';

/** Grouping and ungrouping (specification sections 4-5): every rule on the server, atomic, race-safe. */

async function world() {
  const a = await newPlace('Alpha');
  const b = await newPlace('Beta');
  const lights = await newDevices(
    a,
    [1, 2, 3, 4].map((n) => ({ devType: 1, devName: `Light${n}`, port: 0 })),
    a.floorId,
  );
  const [motion1, motion2, ieq1, ieq2, sameName] = await newDevices(
    a,
    [
      { devType: 4, devName: 'Motion1' },
      { devType: 4, devName: 'Motion2' },
      { devType: 5, devName: 'IEQ1' },
      { devType: 5, devName: 'IEQ2' },
      { devType: 4, devName: 'motion1' },
    ],
    a.floorId,
  );
  const [theirs] = await newDevices(b, [{ devType: 1, devName: 'Theirs', port: 0 }]);
  if (!motion1 || !motion2 || !ieq1 || !ieq2 || !sameName || !theirs) throw new Error('devices missing');
  return { a, b, lights, motion1, motion2, ieq1, ieq2, sameName, theirs };
}

const ids = (devices: { devID: string }[]) => devices.map((d) => d.devID);

describe('groupDevices', () => {
  it('groups lights under a new number 1000-9999, and the group dissolves when one would remain', async () => {
    const { a, lights } = await world();
    const admin = await userWith({ [a.orgId]: 2 });
    const grouped = await admin.call<{ data: number; message: string }>(dc('groupDevices'), {
      devID: ids(lights.slice(0, 3)),
    });
    expect(grouped).toMatchObject({ status: 200, body: { message: 'Device grouped successfully.' } });
    const group = grouped.body.data;
    expect(group).toBeGreaterThanOrEqual(1000);
    expect(group).toBeLessThanOrEqual(9999);
    for (const light of lights.slice(0, 3)) {
      expect(await stored(light.devID)).toMatchObject({ groupNumber: group, version: 1 });
    }
    expect((await stored(lights[3]?.devID ?? ''))?.groupNumber).toBeUndefined();
    expect(await storedGroup(a.orgId, group)).toMatchObject({ members: ids(lights.slice(0, 3)), version: 0 });

    // One leaves: two remain grouped.
    expect(await admin.call(dc('ungroupDevices'), { devID: [lights[0]?.devID] })).toMatchObject({
      status: 200,
      body: { result: 'OK', message: 'Device ungrouped successfully.', ungrouped: [lights[0]?.devID] },
    });
    expect((await stored(lights[1]?.devID ?? ''))?.groupNumber).toBe(group);
    expect(await storedGroup(a.orgId, group)).toMatchObject({ members: ids(lights.slice(1, 3)), version: 1 });

    // Another leaves: the last one would be alone, so the group is dissolved.
    const dissolved = await admin.call<{ ungrouped: string[] }>(dc('ungroupDevices'), {
      devID: [lights[1]?.devID],
    });
    expect(dissolved.status).toBe(200);
    expect(dissolved.body.ungrouped).toEqual(ids(lights.slice(1, 3)).sort());
    for (const light of lights) expect((await stored(light.devID))?.groupNumber).toBeUndefined();
    expect(await storedGroup(a.orgId, group)).toBeUndefined();
  });

  it('enforces every grouping rule with its documented text, changing nothing', async () => {
    const { a, lights, motion1, motion2, ieq1, ieq2, sameName } = await world();
    const admin = await userWith({ [a.orgId]: 2 });
    const group = (devices: string[]) => admin.call(dc('groupDevices'), { devID: devices });
    expect(await group([])).toMatchObject({
      status: 400,
      body: { message: 'Please select the devices to group together.' },
    });
    expect(await group([motion1.devID])).toMatchObject({
      status: 400,
      body: { message: 'Single Device can not paire' },
    });
    expect(await group([motion1.devID, motion1.devID])).toMatchObject({
      status: 400,
      body: { message: 'Single Device can not paire' },
    });
    expect(await group([motion1.devID, lights[0]?.devID ?? ''])).toMatchObject({
      status: 400,
      body: { message: 'Please select the same type of device.' },
    });
    expect(await group([ieq1.devID, ieq2.devID])).toMatchObject({
      status: 400,
      body: { message: 'These device type can not be grouped together' },
    });
    expect(await group([motion1.devID, sameName.devID])).toMatchObject({
      status: 400,
      body: { message: 'Grouping device name must be unique.' },
    });
    expect((await group([motion1.devID, motion2.devID])).status).toBe(200);
    expect(await group([motion1.devID, sameName.devID])).toMatchObject({
      status: 400,
      body: { message: 'Please ungroup this device first.' },
    });
    expect(await admin.call(dc('ungroupDevices'), { devID: [] })).toMatchObject({
      status: 400,
      body: { message: 'Please select the devices to ungroup.' },
    });
    expect(await admin.call(dc('ungroupDevices'), { devID: [sameName.devID] })).toMatchObject({
      status: 400,
      body: { message: 'This device does not come under any group' },
    });
    for (const device of [ieq1, ieq2, sameName, ...lights]) {
      const current = await stored(device.devID);
      expect(current?.groupNumber).toBeUndefined();
      expect(current?.version).toBeUndefined();
    }
  });

  it('decides by the role in the devices organization; foreign devices are unknown devices', async () => {
    const { a, b, lights, theirs } = await world();
    const user = await userWith({ [a.orgId]: 1, [b.orgId]: 2 });
    expect(await user.call(dc('groupDevices'), { devID: ids(lights.slice(0, 2)) })).toMatchObject({
      status: 403,
      body: { message: 'User is unAuthorized' },
    });
    const outsider = await userWith({ [b.orgId]: 2 });
    const unknown = await outsider.call(dc('groupDevices'), { devID: [theirs.devID, UNKNOWN_DEVICE] });
    expect(unknown).toMatchObject({ status: 404, body: DEVICE_NOT_FOUND });
    expectSameAnswer(
      await outsider.call(dc('groupDevices'), { devID: [theirs.devID, lights[0]?.devID] }),
      unknown,
    );
    expectSameAnswer(await outsider.call(dc('ungroupDevices'), { devID: [lights[0]?.devID] }), unknown);
    // Devices of two of the caller's organizations never share a group.
    const both = await userWith({ [a.orgId]: 2, [b.orgId]: 2 });
    expect(await both.call(dc('groupDevices'), { devID: [theirs.devID, lights[0]?.devID] })).toMatchObject({
      status: 400,
      body: { message: 'Devices of different organizations can not be grouped together.' },
    });
  });

  it('ungroups a group seeded before group items existed, by the devices carrying its number', async () => {
    const a = await newPlace('Legacy');
    const devices = await newDevices(a, [
      { devType: 4, devName: 'M1', groupNumber: 2222 },
      { devType: 4, devName: 'M2', groupNumber: 2222 },
      { devType: 4, devName: 'M3', groupNumber: 3333 },
      { devType: 4, devName: 'M4', groupNumber: 3333 },
      { devType: 4, devName: 'M5', groupNumber: 3333 },
    ]);
    await newGroup(a.orgId, 3333, ids(devices.slice(2)));
    const admin = await userWith({ [a.orgId]: 2 });
    const result = await admin.call<{ ungrouped: string[] }>(dc('ungroupDevices'), {
      devID: [devices[0]?.devID, devices[2]?.devID],
    });
    expect(result.status).toBe(200);
    expect(result.body.ungrouped).toEqual([devices[0]?.devID, devices[1]?.devID, devices[2]?.devID].sort());
    expect((await stored(devices[3]?.devID ?? ''))?.groupNumber).toBe(3333);
    expect(await storedGroup(a.orgId, 3333)).toMatchObject({ members: ids(devices.slice(3)) });
  });

  it('two admins grouping the same device at once: exactly one wins', async () => {
    const { a, lights } = await world();
    const first = await userWith({ [a.orgId]: 2 });
    const second = await userWith({ [a.orgId]: 3 });
    const [l1, l2, l3] = ids(lights);
    const results = await Promise.all([
      first.call<{ data?: number; message: string }>(dc('groupDevices'), { devID: [l1, l2] }),
      second.call<{ data?: number; message: string }>(dc('groupDevices'), { devID: [l2, l3] }),
    ]);
    const winners = results.filter((r) => r.status === 200);
    const losers = results.filter((r) => r.status !== 200);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(losers[0]).toMatchObject({ status: 400, body: { message: 'Please ungroup this device first.' } });
    const group = winners[0]?.body.data;
    const grouped = (await Promise.all(ids(lights).map(stored))).filter((d) => d?.groupNumber !== undefined);
    expect(grouped).toHaveLength(2);
    expect(grouped.every((d) => d?.groupNumber === group)).toBe(true);
    expect(grouped.map((d) => d?.devID)).toContain(l2);
  });
});
