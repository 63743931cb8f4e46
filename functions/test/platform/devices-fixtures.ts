import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { OrgRoles } from '@argentum/contracts';
import { dynamo } from '../../src/aws/dynamo';
import { config } from '../../src/config';
import type { Device } from '../../src/domain/devices/device';
import { deviceGroupItem, deviceItem, dynamoDevices } from '../../src/stores/devices';
import { keys } from '../../src/stores/keys';
import { buildingItem, floorItem, orgItem } from '../../src/stores/tree';
import { call, type CallResult, createUser, signIn, stack } from '../support/api';

/**
 * Fixtures of the device tests: organizations with buildings, floors and devices written straight
 * into the local table (as the demo seed does), and users with a role per organization.
 */

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
export const UNKNOWN_DEVICE = 'FF:FF:FF:FF:FF:FF';
export const DEVICE_NOT_FOUND = { message: 'This device does not exist (it may have been deleted).' };
export const FLOOR_NOT_FOUND = { message: 'This floor does not exist (it may have been deleted).' };

export interface Place {
  orgId: string;
  buildId: string;
  floorId: string;
  /** A second floor in the same building. */
  floor2Id: string;
}

async function putAll(items: Record<string, unknown>[]) {
  for (let i = 0; i < items.length; i += 25) {
    await dynamo().send(
      new BatchWriteCommand({
        RequestItems: {
          [config.platformTable]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
        },
      }),
    );
  }
}

/** A fresh organization with one building and two floors. */
export async function newPlace(name = 'Org'): Promise<Place> {
  const place = { orgId: randomUUID(), buildId: randomUUID(), floorId: randomUUID(), floor2Id: randomUUID() };
  await putAll([
    orgItem({ orgId: place.orgId, orgName: name, version: 0 }),
    buildingItem({ orgId: place.orgId, buildId: place.buildId, buildName: 'Tower', version: 0 }),
    ...[place.floorId, place.floor2Id].map((floorId, i) =>
      floorItem({
        orgId: place.orgId,
        buildId: place.buildId,
        floorId,
        floorName: `Level ${i + 1}`,
        floorDevTypes: [],
        editMode: false,
        version: 0,
      }),
    ),
  ]);
  return place;
}

let counter = 0;
/** A fresh MAC-like device id. */
export const newDevId = () =>
  `T${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}${String(counter++).padStart(4, '0')}`;

export type DeviceSeed = Partial<Device> & Pick<Device, 'devType'>;

/** Devices of an organization, on `floorId` (at a position) or on no floor. */
export async function newDevices(place: Place, seeds: DeviceSeed[], floorId?: string): Promise<Device[]> {
  const devices: Device[] = seeds.map((seed, i) => ({
    devID: newDevId(),
    devName: `Device${i + 1}`,
    orgID: place.orgId,
    onFloor: floorId !== undefined,
    ...(floorId !== undefined
      ? { floorID: floorId, buildID: place.buildId, floorOrigin: { x: 0.1 * (i + 1), y: 0.5 } }
      : {}),
    dataPoints: [],
    properties: {},
    updatedAt: new Date(0).toISOString(),
    ...seed,
  }));
  await putAll(devices.map(deviceItem));
  return devices;
}

/** A device group item, as groupDevices writes it (for groups seeded with devices). */
export async function newGroup(orgId: string, groupNumber: number, members: string[]) {
  await putAll([deviceGroupItem({ orgId, groupNumber, members }, new Date().toISOString())]);
}

export async function storedGroup(orgId: string, groupNumber: number) {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.platformTable,
      Key: keys.deviceGroup(orgId, groupNumber),
      ConsistentRead: true,
    }),
  );
  return Item;
}

export async function storedFloor(place: Place, floorId = place.floorId) {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.platformTable,
      Key: keys.floor(place.orgId, place.buildId, floorId),
      ConsistentRead: true,
    }),
  );
  return Item;
}

export const stored = (devId: string) => dynamoDevices.get(devId);

/** A signed-in user with a role in each organization given. */
export async function userWith(orgRoles: OrgRoles) {
  const user = await createUser(orgRoles);
  const session = await signIn(user.email, user.password);
  return {
    userId: user.userId,
    token: session.accessToken,
    call: <T = Record<string, unknown>>(path: string, body: unknown): Promise<CallResult<T>> =>
      call<T>(path, body, { token: session.accessToken }),
  };
}

export type Caller = Awaited<ReturnType<typeof userWith>>;

export const dc = (name: string) => `/api/deviceControl/${name}`;

/** This test file's name for its pauses of the shared stream runner (other files pause it too). */
const streamHolder = randomUUID();

/** The local stack's stream runner (the tree sweeper's feed): paused, committed deletes stay pending. */
export async function streams(action: 'pause' | 'resume') {
  const response = await fetch(`${stack.url}/_local/streams/${action}?holder=${streamHolder}`, {
    method: 'POST',
  });
  expect(response.status).toBe(200);
}

/** Two answers are the same, byte for byte (a foreign id and an unknown one). */
export function expectSameAnswer(a: CallResult, b: CallResult) {
  expect({ status: a.status, body: JSON.stringify(a.body) }).toEqual({
    status: b.status,
    body: JSON.stringify(b.body),
  });
}

/** Uploads a floor's plan as the browser does it: presigned form, straight to storage, then commit. */
export async function uploadFloorPlan(
  token: string,
  floor: { orgId: string; floorId: string },
  svg: string,
): Promise<void> {
  const file = new Blob([svg], { type: 'image/svg+xml' });
  const form = await call<{ url: string; fields: Record<string, string>; key: string }>(
    '/api/dashboard/createFloorPlanUpload',
    { orgID: floor.orgId, floorID: floor.floorId, contentType: 'image/svg+xml', size: file.size },
    { token },
  );
  expect(form.status).toBe(200);
  const body = new FormData();
  for (const [name, value] of Object.entries(form.body.fields)) body.append(name, value);
  body.append('file', file);
  expect((await fetch(form.body.url, { method: 'POST', body })).status).toBeLessThan(300);
  const commit = await call(
    '/api/dashboard/updateFloorPlanS3',
    { orgID: floor.orgId, floorID: floor.floorId, floorplan: form.body.key },
    { token },
  );
  expect(commit.status).toBe(200);
}
