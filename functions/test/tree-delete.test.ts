import { randomUUID } from 'node:crypto';
import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '../src/aws/dynamo';
import { s3 } from '../src/aws/s3';
import { config } from '../src/config';
import type { NodeRef } from '../src/domain/tree/ports';
import { sweepDeleted } from '../src/domain/tree/sweep';
import type { BuildingView, FloorView, OrganizationView } from '../src/domain/tree/tree';
import { sweepPorts } from '../src/lambda/wiring/sweep';
import { handler as treeSweeperHandler, STOP_BEFORE_TIMEOUT_MS } from '../src/lambda/tree-sweeper';
import { deviceItem, dynamoDevices } from '../src/stores/devices';
import { FLOOR_PLAN_RENDITION_WIDTHS, floorPlanKey, floorPlanRenditionKey } from '../src/domain/files/keys';
import { PLAN_VERSION_META } from '../src/domain/files/floor-plans';
import { keys } from '../src/stores/keys';
import { getNode, nodeKey, readOrganizationTree } from '../src/stores/tree';
import { call, createUser, orgIdsOf, signIn, stack, users } from './support/api';
import { invokedAs } from '../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const treeSweeper = invokedAs('tree-sweeper', treeSweeperHandler);

/**
 * Deleting nodes with everything under them. The delete answers as soon as it is committed; the
 * sweeper, fed by the table's stream (locally: infra/local/stream-runner.ts), removes the rest.
 */

interface Admin {
  token: string;
  userId: string;
}

/** An admin (of the demo organization, which makes them one who may create organizations). */
async function newAdmin(): Promise<Admin> {
  const user = await createUser(2, ['org-demo']);
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

const organization = async (admin: Admin, orgId: string) =>
  (await organizations(admin)).find((o) => o._id === orgId);

const deleteItem = (admin: Admin, body: Record<string, unknown>) =>
  call('/api/dashboard/deleteOrgBuildFloor', body, { token: admin.token });

/** This file's name for its pauses of the shared stream runner (other files pause it too). */
const streamHolder = randomUUID();

/** The local stack's stream runner: paused, the sweeper gets nothing until every holder resumed it. */
async function streams(action: 'pause' | 'resume' | 'drained') {
  const response = await fetch(`${stack.url}/_local/streams/${action}?holder=${streamHolder}`, {
    method: 'POST',
  });
  expect(response.status).toBe(200);
}

afterEach(() => streams('resume'));

/** The sweeper works off the request path: its outcome is waited for, generously. */
const sweepTimeout = { timeout: 30_000, interval: 100 };

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
      { orgID: org._id, buildName },
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
  const planVersion = new Date().toISOString();
  for (const floor of floors) {
    await s3().send(
      new PutObjectCommand({
        Bucket: config.filesBucket,
        Key: floorPlanKey(org._id, floor._id),
        Body: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        ContentType: 'image/svg+xml',
        Metadata: { [PLAN_VERSION_META]: planVersion },
      }),
    );
    // Its raster renditions, as the renditions function leaves them beside the plan: of its version
    // (the renditions function removes those of any other version).
    for (const width of FLOOR_PLAN_RENDITION_WIDTHS)
      await s3().send(
        new PutObjectCommand({
          Bucket: config.filesBucket,
          Key: floorPlanRenditionKey(org._id, floor._id, width),
          Body: 'RIFF',
          ContentType: 'image/webp',
          Metadata: { [PLAN_VERSION_META]: planVersion },
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
  return objectExists(floorPlanKey(orgId, floorId));
}

/** How many of a floor's plan renditions are stored. */
async function renditionsLeft(orgId: string, floorId: string): Promise<number> {
  const found = await Promise.all(
    FLOOR_PLAN_RENDITION_WIDTHS.map((width) => objectExists(floorPlanRenditionKey(orgId, floorId, width))),
  );
  return found.filter(Boolean).length;
}

async function objectExists(key: string): Promise<boolean> {
  try {
    await s3().send(new GetObjectCommand({ Bucket: config.filesBucket, Key: key }));
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

const storedKeys = async (orgId: string) => (await partitionItems(orgId)).map((i) => String(i.sk)).sort();

async function expectOffFloor(devID: string, orgId: string) {
  const device = await dynamoDevices.get(devID);
  expect(device).toMatchObject({ devID, orgID: orgId, onFloor: false });
  expect(device?.floorID).toBeUndefined();
  expect(device?.buildID).toBeUndefined();
  expect(device?.floorOrigin).toBeUndefined();
  // Off the floor's index too: the stored item holds no floor lookup key.
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: keys.device(devID), ConsistentRead: true }),
  );
  expect(Item?.devID).toBe(devID);
  expect(Item && 'gsi3pk' in Item).toBe(false);
}

/** Everything a sweep of the organization could touch, to show that something changed nothing. */
async function everything(orgId: string, floors: FloorView[], devices: string[], userIds: string[]) {
  return {
    items: await partitionItems(orgId),
    plans: await Promise.all(floors.map((f) => planExists(orgId, f._id))),
    devices: await Promise.all(devices.map((d) => dynamoDevices.get(d))),
    users: await Promise.all(userIds.map((u) => users.get(u))),
  };
}

/** The stream record a write of the node's item produces, as Lambda hands it to the sweeper. */
async function streamRecordOf(ref: NodeRef, sequenceNumber: string): Promise<DynamoDBStreamEvent> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: nodeKey(ref), ConsistentRead: true }),
  );
  if (!Item) throw new Error(`${ref.kind} ${ref.id} is not stored`);
  // Lambda delivers the record as JSON.
  const image = (item: Record<string, unknown>) =>
    JSON.parse(JSON.stringify(marshall(item))) as Record<string, AttributeValue>;
  return {
    Records: [
      {
        eventID: randomUUID(),
        eventName: 'MODIFY',
        eventSource: 'aws:dynamodb',
        eventSourceARN: 'arn:aws:dynamodb:local:000000000000:table/platform/stream/test',
        dynamodb: {
          Keys: image(nodeKey(ref)),
          NewImage: image(Item),
          SequenceNumber: sequenceNumber,
          StreamViewType: 'NEW_IMAGE',
        },
      },
    ],
  };
}

/** A Lambda context with plenty of time, or one that runs out after `checks` looks at the clock. */
const lambdaTime = (checks = Infinity) => {
  let looked = 0;
  return { getRemainingTimeInMillis: () => (looked++ < checks ? 5 * 60_000 : STOP_BEFORE_TIMEOUT_MS - 1) };
};

describe('deleting', () => {
  it('deletes a floor: the delete answers at once, then its plan leaves S3 and its devices leave the floor', async () => {
    const admin = await newAdmin();
    const { org, floors, devices } = await seededOrg(admin);
    const [floor, sibling] = floors as [FloorView, FloorView];
    expect(await deleteItem(admin, { id: floor._id, type: 'floor', version: 0 })).toMatchObject({
      status: 200,
      body: { message: 'Item deleted successfully' },
    });

    // Hidden from the very next read.
    const after = await organization(admin, org._id);
    expect(after?.buildData[0]?.floors.map((f) => f._id)).toEqual([sibling._id]);

    // The sweeper removes the rest, off the request path.
    await expect
      .poll(
        async () => (await storedKeys(org._id)).includes(`FLOOR#${floor.buildID}#${floor._id}`),
        sweepTimeout,
      )
      .toBe(false);
    expect(await planExists(org._id, floor._id)).toBe(false);
    expect(await renditionsLeft(org._id, floor._id)).toBe(0);
    expect(await planExists(org._id, sibling._id)).toBe(true);
    expect(await renditionsLeft(org._id, sibling._id)).toBe(FLOOR_PLAN_RENDITION_WIDTHS.length);
    for (const devID of devices.slice(0, 2)) await expectOffFloor(devID, org._id);
    expect(await dynamoDevices.get(devices[2] ?? '')).toMatchObject({ onFloor: true, floorID: sibling._id });

    // A second delete of the same floor: it no longer exists.
    expect((await deleteItem(admin, { id: floor._id, type: 'floor' })).status).toBe(404);
  });

  it('deletes a building: nothing is swept in the request, everything under it is hidden and closed at once', async () => {
    const admin = await newAdmin();
    const { org, buildings, floors, devices } = await seededOrg(admin);
    const [east, west] = buildings as [BuildingView, BuildingView];
    const before = await storedKeys(org._id);

    // With the sweeper held back, the delete still answers: it only commits the delete.
    await streams('pause');
    expect(
      await deleteItem(admin, { id: east._id, type: 'building', buildCount: 2, version: 0 }),
    ).toMatchObject({ status: 200, body: { message: 'Item deleted successfully' } });
    expect(await storedKeys(org._id)).toEqual(before);
    expect((await getNode({ kind: 'building', id: east._id, orgId: org._id }))?.deletedAt).toEqual(
      expect.any(String),
    );
    for (const floor of floors.slice(0, 2)) expect(await planExists(org._id, floor._id)).toBe(true);
    expect(await dynamoDevices.get(devices[0] ?? '')).toMatchObject({ onFloor: true });

    // ... yet the building and its floors are gone for every reader and every edit.
    const after = await organization(admin, org._id);
    expect(after?.buildData.map((b) => b._id)).toEqual([west._id]);
    expect(after?.buildData[0]?.floors).toHaveLength(2);
    for (const [path, body] of [
      ['/api/dashboard/createOrUpdateFloor', { buildID: east._id, floorName: 'Late' }],
      ['/api/dashboard/updateOrgBuildFloorName', { id: east._id, value: 'Late' }],
      ['/api/dashboard/updateOrgBuildFloorName', { id: floors[0]?._id, value: 'Late' }],
      [
        '/api/dashboard/updateFloorPlan',
        { orgID: org._id, floorID: floors[0]?._id, updateFloorObj: { floorName: 'Late' } },
      ],
      ['/api/dashboard/deleteOrgBuildFloor', { id: floors[1]?._id, type: 'floor' }],
    ] as const) {
      expect((await call(path, body, { token: admin.token })).status).toBe(404);
    }

    await streams('resume');
    const remaining = [
      'ORG',
      'SUMMARY',
      `BUILDING#${west._id}`,
      ...floors.slice(2).map((f) => `FLOOR#${west._id}#${f._id}`),
    ];
    await expect.poll(() => storedKeys(org._id), sweepTimeout).toEqual(remaining.sort());
    for (const floor of floors.slice(0, 2)) expect(await planExists(org._id, floor._id)).toBe(false);
    for (const floor of floors.slice(2)) expect(await planExists(org._id, floor._id)).toBe(true);
    for (const devID of devices.slice(0, 4)) await expectOffFloor(devID, org._id);
    for (const devID of devices.slice(4))
      expect(await dynamoDevices.get(devID)).toMatchObject({ onFloor: true });
  });

  it('deletes an organization with everything in it; its members lose it; other organizations are untouched', async () => {
    const admin = await newAdmin();
    const { org, floors, devices } = await seededOrg(admin);
    const member = await createUser(0, [org._id, 'org-demo']);
    expect(await users.memberIds(org._id)).toHaveLength(2);
    expect(await deleteItem(admin, { id: org._id, type: 'organization' })).toMatchObject({
      status: 200,
      body: { message: 'Item deleted successfully' },
    });
    expect((await organizations(admin)).map((o) => o.orgID)).toEqual(['org-demo']);

    await expect.poll(() => partitionItems(org._id), sweepTimeout).toEqual([]);
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

  it('a sweep that runs out of time is resumed by the next delivery of the delete; reads never sweep; a repeated delivery changes nothing', async () => {
    const admin = await newAdmin();
    const { org, buildings, floors, devices } = await seededOrg(admin);
    await streams('pause');
    expect((await deleteItem(admin, { id: org._id, type: 'organization' })).status).toBe(200);
    const record = await streamRecordOf({ kind: 'organization', id: org._id, orgId: org._id }, '100');

    // The sweeper runs out of time after 7 steps: it reports the record, so the stream delivers it again.
    expect(await treeSweeper(record, lambdaTime(7))).toEqual({
      batchItemFailures: [{ itemIdentifier: '100' }],
    });
    // Half swept underneath (floor by floor: devices, plan, its three renditions, floor item; one floor
    // done, the next half) ...
    const stored = await partitionItems(org._id);
    expect(stored.length).toBeGreaterThan(1);
    // (the organization, its summary, 2 buildings, 4 floors)
    expect(stored.length).toBeLessThan(2 + 2 + 4);
    const plansLeft = await Promise.all(floors.map((f) => planExists(org._id, f._id)));
    expect(plansLeft.filter(Boolean)).toHaveLength(3);
    const onFloor = await Promise.all(devices.map(async (d) => (await dynamoDevices.get(d))?.onFloor));
    expect(onFloor.filter(Boolean)).toHaveLength(4);

    // ... but nothing of it is visible, and nothing can be created under it or renamed in it.
    const read = await readOrganizationTree(org._id);
    expect(read.tree).toBeUndefined();
    expect(read.tombstones.map((t) => t.id)).toContain(org._id);
    expect((await organizations(admin)).map((o) => o.orgID)).toEqual(['org-demo']);
    const west = buildings[1] as BuildingView;
    for (const [path, body] of [
      ['/api/dashboard/createOrUpdateOrgBuild', { orgID: org._id, buildName: 'Late' }],
      ['/api/dashboard/createOrUpdateFloor', { buildID: west._id, floorName: 'Late' }],
      ['/api/dashboard/updateOrgBuildFloorName', { id: org._id, value: 'Late' }],
    ] as const) {
      expect((await call(path, body, { token: admin.token })).status).toBe(404);
    }

    // Reads never sweep: after them, the organization is exactly as half swept as before.
    const halfSwept = await everything(org._id, floors, devices, [admin.userId]);
    await organizations(admin);
    await readOrganizationTree(org._id);
    expect(await everything(org._id, floors, devices, [admin.userId])).toEqual(halfSwept);

    // The stream delivers the delete (again): the sweep is finished.
    await streams('resume');
    await expect.poll(() => partitionItems(org._id), sweepTimeout).toEqual([]);
    await expect.poll(() => orgIdsOf(admin.userId), sweepTimeout).toEqual(['org-demo']);
    for (const floor of floors) expect(await planExists(org._id, floor._id)).toBe(false);
    for (const devID of devices) await expectOffFloor(devID, org._id);

    // Delivered once more (Lambda delivers at least once): nothing left to do, and nothing changes.
    const swept = await everything(org._id, floors, devices, [admin.userId]);
    expect(await treeSweeper(record, lambdaTime())).toEqual({ batchItemFailures: [] });
    expect(await everything(org._id, floors, devices, [admin.userId])).toEqual(swept);
  });

  it('a sweep that failed is finished by deleting the node again, and later deliveries change nothing', async () => {
    const admin = await newAdmin();
    const { org, buildings, floors, devices } = await seededOrg(admin);
    const east = buildings[0] as BuildingView;
    const ref = { kind: 'building', id: east._id, orgId: org._id } as const;
    await streams('pause');
    expect((await deleteItem(admin, { id: east._id, type: 'building' })).status).toBe(200);

    // A failure in the middle of the sweep (here: thrown by the step check) leaves the rest for later.
    const tombstone = await getNode(ref);
    if (!tombstone) throw new Error('missing building');
    let steps = 0;
    const finished = await sweepDeleted(sweepPorts(), tombstone, {
      shouldStop: () => {
        if (steps++ === 2) throw new Error('S3 unavailable');
        return false;
      },
    });
    expect(finished).toBe(false);
    // (one floor's devices and plan are done, its item and the other floor are left)
    const plansLeft = await Promise.all(floors.slice(0, 2).map((f) => planExists(org._id, f._id)));
    expect(plansLeft.filter(Boolean)).toHaveLength(1);
    const read = await readOrganizationTree(org._id);
    expect(read.tree?.buildings.map((b) => b.buildId)).toEqual([buildings[1]?._id]);
    expect(read.tree?.floors).toHaveLength(2);

    // Deleting it again (say the delete's deliveries were used up) answers success and hands the
    // committed delete to the sweeper once more: a new write of the marked item, a new stream record.
    expect(await deleteItem(admin, { id: east._id, type: 'building' })).toMatchObject({
      status: 200,
      body: { message: 'Item deleted successfully' },
    });
    const again = await streamRecordOf(ref, '200');
    expect(again.Records[0]?.dynamodb?.NewImage).toMatchObject({
      entity: { S: 'building' },
      deletedAt: { S: tombstone.deletedAt },
      sweepRequestedAt: { S: expect.any(String) },
    });
    expect(await treeSweeper(again, lambdaTime())).toEqual({ batchItemFailures: [] });
    expect((await storedKeys(org._id)).some((sk) => sk.includes(east._id))).toBe(false);
    for (const floor of floors.slice(0, 2)) expect(await planExists(org._id, floor._id)).toBe(false);
    for (const devID of devices.slice(0, 4)) await expectOffFloor(devID, org._id);
    expect(await dynamoDevices.get(devices[4] ?? '')).toMatchObject({ onFloor: true });

    // The stream then delivers both writes of the marked item: the sweep is done, nothing changes.
    const swept = await everything(org._id, floors, devices, [admin.userId]);
    await streams('resume');
    await streams('drained');
    expect(await everything(org._id, floors, devices, [admin.userId])).toEqual(swept);
    expect((await deleteItem(admin, { id: east._id, type: 'building' })).status).toBe(404);
  });
});
