import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors';
import {
  createBuilding,
  createFloor,
  createOrganization,
  deleteNode,
  renameNode,
} from '../../../src/domain/tree/editing';
import { CHANGED_MEANWHILE_MESSAGE, NOT_FOUND_MESSAGES } from '../../../src/domain/tree/texts';
import type { AuthUser, UserRecord } from '../../../src/domain/users/user';
import { memoryTreeStore, memoryUserStore, testClock } from '../../support/fakes/memory-stores';

const record = (userId: string, orgRoles: UserRecord['orgRoles']): UserRecord => ({
  userId,
  email: `${userId}@example.com`,
  userName: userId,
  orgRoles,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
});

/** Tree editing on the in-memory tree and user stores: an admin creates an organization with a floor. */
async function scene() {
  const users = memoryUserStore();
  await users.saveIfUnchanged(record('admin', { 'org-other': 2 }), undefined);
  const deps = { tree: memoryTreeStore(users), clock: testClock() };
  const asAdmin = async (): Promise<AuthUser> => (await users.get('admin')) as UserRecord;
  const org = await createOrganization(deps, await asAdmin(), 'Acme');
  const admin = await asAdmin();
  const building = await createBuilding(deps, admin, org._id, 'HQ');
  const floor = await createFloor(deps, admin, building._id, 'Ground');
  return { deps, users, admin, org, building, floor };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return { kind: (error as DomainError).kind, message: (error as DomainError).message };
};

describe('tree editing (use cases on fakes)', () => {
  it('makes the creator of an organization its admin, so they edit what they created', async () => {
    const { users, org, floor } = await scene();
    expect((await users.get('admin'))?.orgRoles[org._id]).toBe(2);
    expect(floor).toMatchObject({ floorName: 'Ground' });
  });

  it("answers another organization's node exactly like an unknown one, and a member below admin 403", async () => {
    const { deps, org, building } = await scene();
    const stranger: AuthUser = record('stranger', { 'org-other': 3 });
    const unknown = await refusal(renameNode(deps, stranger, { id: 'nope', value: 'X', kind: 'building' }));
    expect(
      await refusal(renameNode(deps, stranger, { id: building._id, value: 'X', kind: 'building' })),
    ).toEqual(unknown);
    const member: AuthUser = record('member', { [org._id]: 1 });
    expect((await refusal(renameNode(deps, member, { id: building._id, value: 'X' }))).kind).toBe(
      'forbidden',
    );
  });

  it('refuses a rename based on an older version (409), so two admins never undo each other', async () => {
    const { deps, admin, building } = await scene();
    const first = await renameNode(deps, admin, { id: building._id, value: 'North', version: 0 });
    expect(first).toMatchObject({ name: 'North', version: 1 });
    expect(await refusal(renameNode(deps, admin, { id: building._id, value: 'South', version: 0 }))).toEqual({
      kind: 'conflict',
      message: CHANGED_MEANWHILE_MESSAGE,
    });
  });

  it('hides everything under a deleted building at once: its floors cannot be edited nor added to', async () => {
    const { deps, admin, building, floor } = await scene();
    await deleteNode(deps, admin, { id: building._id, type: 'building', version: 0 });
    expect(await refusal(renameNode(deps, admin, { id: floor._id, value: 'Upper' }))).toEqual({
      kind: 'not-found',
      message: NOT_FOUND_MESSAGES.floor,
    });
    expect(await refusal(createFloor(deps, admin, building._id, 'Another'))).toEqual({
      kind: 'not-found',
      message: NOT_FOUND_MESSAGES.building,
    });
    // Deleting it again hands it to the sweeper again, without an error.
    await deleteNode(deps, admin, { id: building._id, type: 'building' });
  });
});
