import { randomUUID } from 'node:crypto';
import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../src/aws/dynamo';
import { s3 } from '../src/aws/s3';
import { config } from '../src/config';
import { deleteNode } from '../src/domain/tree/editing';
import type { BuildingView, FloorView, OrganizationView } from '../src/domain/tree/tree';
import { deviceItem, getDevice } from '../src/stores/devices';
import { floorPlanKey } from '../src/stores/files';
import { keys } from '../src/stores/keys';
import { readOrganizationTree } from '../src/stores/tree';
import { sweepPorts } from '../src/lambda/ports';
import { call, createUser, orgIdsOf, signIn, users } from './support/api';

/** Deleting nodes with everything under them, and the resumption of an interrupted delete. */

interface Admin {
  token: string;
  userId: string;
}

async function newAdmin(orgIds: string[] = []): Promise<Admin> {
  const user = await createUser(2, orgIds);
  return { token: (await signIn(user.email, user.password)).accessToken, userId: user.userId };
}

async function post<T>(admin: Admin, path: string, body: Record<string, unknown>) {
  const result = await call<T>(path, body, { token: admin.token });
  if (result.status >= 300) throw new Error(`${path}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

const organizations = async (admin: Admin) =>
  (await post<{ organizations: OrganizationView[] }>(admin, '/api/dashboard/getUsersOrganisations', {}))
    .organizations;

/** An organization with 2 buildings x 2 floors, each floor with a plan in S3 and 2 devices on it. */
async function seededOrg(admin: Admin) {
  const { organization: org } = await post<{ organization: OrganizationView }>(
    admin,
    '/api/dashboard/createOrUpdateOrgBuild',
    { orgName: 'Doomed Org' },
  );
  const floors: FloorView[] = [];
  const buildings: BuildingView[] = [];
  for (const buildName of ['East', 'West']) {
    const { building } = await post<{ building: BuildingView }>(
      admin,
      '/api/dashboard/createOrUpdateOrgBuild',
      {
        orgID: org._id,
        buildName,
      },
    );
    buildings.push(building);
    for (const floorName of ['Lower', 'Upper']) {
      const { floor } = await post<{ floor: FloorView }>(admin, '/api/dashboard/createOrUpdateFloor', {
        buildID: building._id,
        floorName,
      });
      floors.push(floor);
    }
  }
  const devices: string[] = [];
  for (const floor of floors) {
    await s3().send(
      new PutObjectCommand({
        Bucket: config.filesBucket,
        Key: floorPlanKey(org._id, floor._id),
        Body: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        ContentType: 'image/svg+xml',
      }),
    );
    for (let i = 0; i < 2; i++) {
      const devID = `T:${randomUUID().slice(0, 8)}`;
      devices.push(devID);
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: deviceItem({
            devID,
            devName: `Sensor${i}`,
            devType: 4,
            orgID: org._id,
            buildID: floor.buildID,
            floorID: floor._id,
            onFloor: true,
            floorOrigin: { x: 10, y: 20 },
            dataPoints: [],
            properties: {},
            updatedAt: new Date(0).toISOString(),
          }),
        }),
      );
    }
  }
  return { org, buildings, floors, devices };
}

async function planExists(orgId: string, floorId: string): Promise<boolean> {
  try {
    await s3().send(new GetObjectCommand({ Bucket: config.filesBucket, Key: floorPlanKey(orgId, floorId) }));
    return true;
  } catch (error) {
    if (error instanceof NoSuchKey) return false;
    throw error;
  }
}

async function partitionItems(orgId: string) {
  const { Items } = await dynamo().send(
    new QueryCommand({
      TableName: config.platformTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.orgPartition(orgId) },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

async function expectOffFloor(devID: string, orgId: string) {
  const device = await getDevice(devID);
  expect(device).toMatchObject({ devID, orgID: orgId, onFloor: false });
  expect(device?.floorID).toBeUndefined();
  expect(device?.buildID).toBeUndefined();
  expect(device?.floorOrigin).toBeUndefined();
  expect(device && 'gsi1pk' in device).toBe(false);
}

describe('deleting', () => {
  it('deletes a floor: its plan leaves S3, its devices leave the floor and stay in the organization', async () => {
    const admin = await newAdmin();
    const { org, floors, devices } = await seededOrg(admin);
    const [floor, sibling] = floors as [FloorView, FloorView];
    const result = await call(
      '/api/dashboard/deleteOrgBuildFloor',
      { id: floor._id, type: 'floor', version: 0 },
      {
        token: admin.token,
      },
    );
    expect(result).toMatchObject({ status: 200, body: { message: 'Item deleted successfully' } });

    const [after] = await organizations(admin);
    expect(after?.buildData[0]?.floors.map((f) => f._id)).toEqual([sibling._id]);
    expect(await planExists(org._id, floor._id)).toBe(false);
    expect(await planExists(org._id, sibling._id)).toBe(true);
    for (const devID of devices.slice(0, 2)) await expectOffFloor(devID, org._id);
    expect(await getDevice(devices[2] ?? '')).toMatchObject({ onFloor: true, floorID: sibling._id });

    // A second delete of the same floor: it no longer exists.
    expect(
      (
        await call(
          '/api/dashboard/deleteOrgBuildFloor',
          { id: floor._id, type: 'floor' },
          { token: admin.token },
        )
      ).status,
    ).toBe(404);
  });

  it('deletes a building with its floors, plans and device placements', async () => {
    const admin = await newAdmin();
    const { org, buildings, floors, devices } = await seededOrg(admin);
    const [east, west] = buildings as [BuildingView, BuildingView];
    await post(admin, '/api/dashboard/deleteOrgBuildFloor', {
      id: east._id,
      type: 'building',
      buildCount: 2,
    });

    const [after] = await organizations(admin);
    expect(after?.buildData.map((b) => b._id)).toEqual([west._id]);
    expect(after?.buildData[0]?.floors).toHaveLength(2);
    for (const floor of floors.slice(0, 2)) expect(await planExists(org._id, floor._id)).toBe(false);
    for (const floor of floors.slice(2)) expect(await planExists(org._id, floor._id)).toBe(true);
    for (const devID of devices.slice(0, 4)) await expectOffFloor(devID, org._id);
    for (const devID of devices.slice(4)) expect(await getDevice(devID)).toMatchObject({ onFloor: true });
    expect((await partitionItems(org._id)).map((i) => i.sk).sort()).toEqual(
      ['ORG', `BUILDING#${west._id}`, ...floors.slice(2).map((f) => `FLOOR#${west._id}#${f._id}`)].sort(),
    );
  });

  it('deletes an organization with everything in it; other organizations are untouched', async () => {
    const admin = await newAdmin(['org-demo']);
    const { org, floors, devices } = await seededOrg(admin);
    const member = await createUser(0, [org._id, 'org-demo']);
    expect(await users.memberIds(org._id)).toHaveLength(2);
    await post(admin, '/api/dashboard/deleteOrgBuildFloor', { id: org._id, type: 'organization' });

    expect((await organizations(admin)).map((o) => o.orgID)).toEqual(['org-demo']);
    expect(await partitionItems(org._id)).toEqual([]);
    // Its members lose it (record and membership); their other organizations stay.
    expect(await users.memberIds(org._id)).toEqual([]);
    for (const userId of [admin.userId, member.userId]) {
      expect(await orgIdsOf(userId)).toEqual(['org-demo']);
    }
    for (const floor of floors) expect(await planExists(org._id, floor._id)).toBe(false);
    for (const devID of devices) await expectOffFloor(devID, org._id);
    expect((await organizations(admin))[0]?.buildData[0]?.floors).toHaveLength(2);
    expect(await planExists('org-demo', 'flr-demo-ground')).toBe(true);
  });

  it('an interrupted organization delete hides the whole tree at once, refuses edits under it, and is finished by the next read', async () => {
    const admin = await newAdmin();
    const { org, buildings, floors, devices } = await seededOrg(admin);
    const user = await users.get(admin.userId);
    if (!user) throw new Error('missing user');

    // Stop the sweep after 4 steps, as a Lambda that runs out of time or crashes would.
    let steps = 0;
    const result = await deleteNode(
      sweepPorts(),
      user,
      { id: org._id, type: 'organization' },
      { shouldStop: () => steps++ >= 4 },
    );
    expect(result).toEqual({ pending: true });

    // Half swept underneath (the first floor is gone, the rest is still stored) ...
    const stored = await partitionItems(org._id);
    expect(stored.length).toBeGreaterThan(1);
    expect(stored.length).toBeLessThan(1 + 2 + 4);
    // (the sweep goes floor by floor: devices, plan, floor item; one floor done, the next half done)
    const plansLeft = await Promise.all(floors.map((f) => planExists(org._id, f._id)));
    expect(plansLeft.filter(Boolean)).toHaveLength(3);
    const onFloor = await Promise.all(devices.map(async (d) => (await getDevice(d))?.onFloor));
    expect(onFloor.filter(Boolean)).toHaveLength(4);
    // ... but nothing of it is visible: the read (without resuming) sees no tree, only the tombstone.
    const read = await readOrganizationTree(org._id);
    expect(read.tree).toBeUndefined();
    expect(read.tombstones.map((t) => t.id)).toContain(org._id);

    // Nothing can be created under it or renamed in it meanwhile.
    const west = buildings[1] as BuildingView;
    for (const [path, body] of [
      ['/api/dashboard/createOrUpdateOrgBuild', { orgID: org._id, buildName: 'Late' }],
      ['/api/dashboard/createOrUpdateFloor', { buildID: west._id, floorName: 'Late' }],
      ['/api/dashboard/updateOrgBuildFloorName', { id: org._id, value: 'Late' }],
    ] as const) {
      expect((await call(path, body, { token: admin.token })).status).toBe(404);
    }

    // The next read hides it and finishes the sweep.
    expect(await organizations(admin)).toEqual([]);
    expect(await partitionItems(org._id)).toEqual([]);
    expect(await orgIdsOf(admin.userId)).toEqual([]);
    for (const floor of floors) expect(await planExists(org._id, floor._id)).toBe(false);
    for (const devID of devices) await expectOffFloor(devID, org._id);
  });

  it('an interrupted building delete is finished by deleting it again', async () => {
    const admin = await newAdmin();
    const { org, buildings, floors, devices } = await seededOrg(admin);
    const user = await users.get(admin.userId);
    if (!user) throw new Error('missing user');
    const east = buildings[0] as BuildingView;

    // A failure in the middle of the sweep (here: thrown by the step check) leaves the rest for later.
    let steps = 0;
    const result = await deleteNode(
      sweepPorts(),
      user,
      { id: east._id, type: 'building' },
      {
        shouldStop: () => {
          if (steps++ === 2) throw new Error('S3 unavailable');
          return false;
        },
      },
    );
    expect(result).toEqual({ pending: true });
    const read = await readOrganizationTree(org._id);
    expect(read.tree?.buildings.map((b) => b.buildId)).toEqual([buildings[1]?._id]);
    expect(read.tree?.floors).toHaveLength(2);

    // Deleting it again (e.g. a retry) resumes the sweep and answers success.
    expect(await deleteNode(sweepPorts(), user, { id: east._id, type: 'building' })).toEqual({
      pending: false,
    });
    expect((await partitionItems(org._id)).some((i) => String(i.sk).includes(east._id))).toBe(false);
    for (const floor of floors.slice(0, 2)) expect(await planExists(org._id, floor._id)).toBe(false);
    for (const devID of devices.slice(0, 4)) await expectOffFloor(devID, org._id);
    expect(await getDevice(devices[4] ?? '')).toMatchObject({ onFloor: true });
  });
});
