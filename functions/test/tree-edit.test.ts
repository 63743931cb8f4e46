import { describe, expect, it } from 'vitest';
import type { BuildingView, FloorView, OrganizationView } from '../src/domain/tree/tree';
import { ITEM_NOT_FOUND_MESSAGE, NOT_FOUND_MESSAGES } from '../src/domain/tree/texts';
import { call, createOwnOrganization, createUser, orgIdsOf, signIn, users } from './support/api';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Handler tests of editing the tree, over HTTP against the local stack. Every test makes its own users and organizations. */

interface Admin {
  token: string;
  userId: string;
  /** The organization the admin administers from the start (their own, or the ones given). */
  homeOrgIds: string[];
}

/** An admin of `orgIds`, or of a fresh empty organization of their own when none are given. */
async function newAdmin(role: 2 | 3 = 2, orgIds: string[] = []): Promise<Admin> {
  const user = await createUser(role, orgIds);
  const homeOrgIds = orgIds.length > 0 ? orgIds : [await createOwnOrganization(user.userId, role)];
  const session = await signIn(user.email, user.password);
  return { token: session.accessToken, userId: user.userId, homeOrgIds };
}

async function tree(token: string): Promise<OrganizationView[]> {
  const result = await call<{ organizations: OrganizationView[] }>(
    '/api/dashboard/getUsersOrganisations',
    {},
    { token },
  );
  expect(result.status).toBe(200);
  return result.body.organizations;
}

/** The admin's tree without the organizations they started with. */
async function createdTree(admin: Admin): Promise<OrganizationView[]> {
  return (await tree(admin.token)).filter((o) => !admin.homeOrgIds.includes(o._id));
}

async function newOrg(admin: Admin, orgName = 'Test Org'): Promise<OrganizationView> {
  const result = await call<{ message: string; organization: OrganizationView }>(
    '/api/dashboard/createOrUpdateOrgBuild',
    { orgName },
    { token: admin.token },
  );
  expect(result.status).toBe(201);
  return result.body.organization;
}

async function newBuilding(admin: Admin, orgID: string, buildName = 'Tower A'): Promise<BuildingView> {
  const result = await call<{ building: BuildingView }>(
    '/api/dashboard/createOrUpdateOrgBuild',
    { orgID, buildName },
    { token: admin.token },
  );
  expect(result.status).toBe(201);
  return result.body.building;
}

async function newFloor(admin: Admin, buildID: string, floorName = 'Level 1'): Promise<FloorView> {
  const result = await call<{ floor: FloorView }>(
    '/api/dashboard/createOrUpdateFloor',
    { buildID, floorName },
    { token: admin.token },
  );
  expect(result.status).toBe(201);
  return result.body.floor;
}

describe('creating organizations, buildings and floors', () => {
  it('creates an organization that joins its creator’s organizations, then a building and a floor in it', async () => {
    const admin = await newAdmin();
    const created = await call<{ message: string; organization: OrganizationView }>(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgName: '  Acme Facilities  ' },
      { token: admin.token },
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Organization has been created successfuly.');
    const org = created.body.organization;
    expect(org).toMatchObject({ orgName: 'Acme Facilities', orgID: org._id, buildData: [], version: 0 });
    expect(org._id).toMatch(/^[0-9a-f-]{36}$/);
    // The creator administers what they created, with their own role.
    expect(await orgIdsOf(admin.userId)).toEqual([...admin.homeOrgIds, org._id].sort());
    expect((await users.get(admin.userId))?.orgRoles[org._id]).toBe(2);
    expect(await users.memberIds(org._id)).toEqual([admin.userId]);

    const building = await call<{ message: string; building: BuildingView }>(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgID: org._id, buildName: 'North Wing' },
      { token: admin.token },
    );
    expect(building.status).toBe(201);
    expect(building.body.message).toBe('New Building has been created successfuly');

    const floor = await call<{ message: string; floor: FloorView }>(
      '/api/dashboard/createOrUpdateFloor',
      { buildID: building.body.building._id, floorName: 'Mezzanine' },
      { token: admin.token },
    );
    expect(floor.status).toBe(201);
    expect(floor.body.message).toBe('New Floor has been created successfuly');
    expect(floor.body.floor).toMatchObject({ orgID: org._id, buildID: building.body.building._id });

    expect(await createdTree(admin)).toEqual([
      {
        _id: org._id,
        orgID: org._id,
        orgName: 'Acme Facilities',
        version: 0,
        buildData: [
          {
            _id: building.body.building._id,
            buildName: 'North Wing',
            version: 0,
            floors: [floor.body.floor],
          },
        ],
      },
    ]);
  });

  it('refuses empty names with the documented messages', async () => {
    const admin = await newAdmin();
    const org = await newOrg(admin);
    const building = await newBuilding(admin, org._id);
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/dashboard/createOrUpdateOrgBuild', { orgName: '' }, 'Organization name can not be empty.'],
      ['/api/dashboard/createOrUpdateOrgBuild', { orgName: '   ' }, 'Organization name can not be empty.'],
      ['/api/dashboard/createOrUpdateOrgBuild', {}, 'Organization name can not be empty.'],
      [
        '/api/dashboard/createOrUpdateOrgBuild',
        { orgID: org._id, buildName: ' ' },
        'Building name can not be empty.',
      ],
      [
        '/api/dashboard/createOrUpdateFloor',
        { buildID: building._id, floorName: '' },
        'Floor name can not be empty.',
      ],
      [
        '/api/dashboard/updateOrgBuildFloorName',
        { id: org._id, value: '' },
        'Organization name can not be empty.',
      ],
      [
        '/api/dashboard/updateOrgBuildFloorName',
        { id: building._id, value: ' ' },
        'Building name can not be empty.',
      ],
    ];
    for (const [path, body, message] of cases) {
      const result = await call(path, body, { token: admin.token });
      expect({ path, body, status: result.status, message: result.body.message }).toEqual({
        path,
        body,
        status: 400,
        message,
      });
    }
    // Names with spaces are fine: the special-character rule applies to device and data-point names only.
    const numbered = await newBuilding(admin, org._id, 'Main Building #2');
    expect(numbered).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      buildName: 'Main Building #2',
    });
    expect((await createdTree(admin))[0]?.buildData.map((b) => b.buildName).sort()).toEqual([
      'Main Building #2',
      'Tower A',
    ]);
  });

  it('stores names NFC-normalized and refuses control characters, direction overrides and invisible names', async () => {
    const admin = await newAdmin();
    const org = await newOrg(admin, 'Cafe\u0301 Org');
    expect(org.orgName).toBe('Caf\u00e9 Org');
    const refusals: [string, string][] = [
      ['Lobby\u0007', 'Names cannot contain control characters, direction overrides or broken characters.'],
      [
        'invoice\u202Egpj.exe',
        'Names cannot contain control characters, direction overrides or broken characters.',
      ],
      ['\u200b\u200b', 'Names must contain at least one visible character.'],
    ];
    for (const [value, message] of refusals) {
      for (const [path, body] of [
        ['/api/dashboard/createOrUpdateOrgBuild', { orgID: org._id, buildName: value }],
        ['/api/dashboard/updateOrgBuildFloorName', { id: org._id, value }],
      ] as const) {
        const result = await call(path, body, { token: admin.token });
        expect({ path, status: result.status, body: result.body }).toEqual({
          path,
          status: 400,
          body: { message },
        });
      }
    }
    // A user name follows the same rules.
    const renamed = await call('/api/changeUsername', { username: 'Eve\u202E' }, { token: admin.token });
    expect(renamed).toMatchObject({ status: 400, body: { message: refusals[0]?.[1] } });
    expect((await users.get(admin.userId))?.userName).toBe('Test User');
  });

  it('refuses roles 0 and 1 on every editing call, whatever the organization', async () => {
    for (const role of [0, 1] as const) {
      const user = await createUser(role, ['org-demo']);
      const { accessToken } = await signIn(user.email, user.password);
      const calls: [string, Record<string, unknown>][] = [
        ['/api/dashboard/createOrUpdateOrgBuild', { orgName: 'Mine' }],
        ['/api/dashboard/createOrUpdateOrgBuild', { orgID: 'org-demo', buildName: 'Annex' }],
        ['/api/dashboard/createOrUpdateFloor', { buildID: 'bld-demo-hq', floorName: 'Roof' }],
        ['/api/dashboard/updateOrgBuildFloorName', { id: 'flr-demo-ground', value: 'Renamed' }],
        ['/api/dashboard/deleteOrgBuildFloor', { id: 'flr-demo-ground', type: 'floor' }],
        [
          '/api/dashboard/updateFloorPlan',
          { orgID: 'org-demo', floorID: 'flr-demo-ground', updateFloorObj: { floorName: 'Renamed' } },
        ],
      ];
      for (const [path, body] of calls) {
        const result = await call(path, body, { token: accessToken });
        expect({ role, path, status: result.status, body: result.body }).toEqual({
          role,
          path,
          status: 403,
          body: { message: 'User is unAuthorized' },
        });
      }
    }
    // Nothing changed in the demo tree.
    const viewer = await createUser(0, ['org-demo']);
    const demo = (await tree((await signIn(viewer.email, viewer.password)).accessToken))[0];
    expect(demo?.buildData.map((b) => b.buildName)).toEqual(['Headquarters']);
    expect(demo?.buildData[0]?.floors.map((f) => f.floorName)).toEqual(['First Floor', 'Ground Floor']);
  });

  it('answers an admin (or a platform owner) outside an organization exactly as for an unknown id', async () => {
    const otherAdmin = await newAdmin();
    const foreignOrg = await newOrg(otherAdmin, 'Foreign Org');
    const foreignBuilding = await newBuilding(otherAdmin, foreignOrg._id);
    const foreignFloor = await newFloor(otherAdmin, foreignBuilding._id);

    for (const role of [2, 3] as const) {
      const admin = await newAdmin(role, ['org-demo']);
      const calls: [string, Record<string, unknown>][] = [
        ['/api/dashboard/createOrUpdateOrgBuild', { orgID: foreignOrg._id, buildName: 'Intruder' }],
        ['/api/dashboard/createOrUpdateOrgBuild', { orgID: foreignOrg._id, orgName: 'Taken over' }],
        ['/api/dashboard/createOrUpdateOrgBuild', { buildID: foreignBuilding._id, buildName: 'Taken over' }],
        ['/api/dashboard/createOrUpdateFloor', { buildID: foreignBuilding._id, floorName: 'Intruder' }],
        [
          '/api/dashboard/createOrUpdateFloor',
          { buildID: foreignBuilding._id, floorID: foreignFloor._id, floorName: 'Taken over' },
        ],
        ['/api/dashboard/updateOrgBuildFloorName', { id: foreignOrg._id, value: 'Taken over' }],
        ['/api/dashboard/updateOrgBuildFloorName', { id: foreignFloor._id, value: 'Taken over' }],
        ['/api/dashboard/deleteOrgBuildFloor', { id: foreignFloor._id, type: 'floor' }],
        ['/api/dashboard/deleteOrgBuildFloor', { id: foreignBuilding._id, type: 'building' }],
        ['/api/dashboard/deleteOrgBuildFloor', { id: foreignOrg._id, type: 'organization' }],
        [
          '/api/dashboard/updateFloorPlan',
          { orgID: foreignOrg._id, floorID: foreignFloor._id, updateFloorObj: { floorName: 'Taken over' } },
        ],
        // Naming an organization of one's own does not help with a floor of another.
        [
          '/api/dashboard/updateFloorPlan',
          { orgID: 'org-demo', floorID: foreignFloor._id, updateFloorObj: { floorName: 'Taken over' } },
        ],
      ];
      for (const [path, body] of calls) {
        const result = await call(path, body, { token: admin.token });
        // The same status and text as for an id that does not exist: nothing tells them it does.
        const unknownId = JSON.parse(
          JSON.stringify(body)
            .replaceAll(foreignOrg._id, UNKNOWN_ID)
            .replaceAll(foreignBuilding._id, UNKNOWN_ID)
            .replaceAll(foreignFloor._id, UNKNOWN_ID),
        ) as Record<string, unknown>;
        const unknown = await call(path, unknownId, { token: admin.token });
        expect({ role, path, body, status: result.status, answer: result.body }).toEqual({
          role,
          path,
          body,
          status: 404,
          answer: unknown.body,
        });
      }
    }
    expect(await createdTree(otherAdmin)).toEqual([
      {
        ...foreignOrg,
        buildData: [{ ...foreignBuilding, floors: [foreignFloor] }],
      },
    ]);
  });

  it('decides with the role in the organization the call touches', async () => {
    // Admin in their own organization, read-only in Demo Org.
    const admin = await newAdmin();
    const member = await users.get(admin.userId);
    if (!member) throw new Error('no admin');
    expect(
      await users.saveIfUnchanged(
        { ...member, orgRoles: { ...member.orgRoles, 'org-demo': 0 }, version: member.version + 1 },
        member,
      ),
    ).toBe('saved');
    const { accessToken } = await signIn((await users.get(admin.userId))?.email ?? '', 'Test-Passw0rd!');
    const own = admin.homeOrgIds[0] ?? '';
    const inOwn = await call(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgID: own, buildName: 'Annex' },
      { token: accessToken },
    );
    expect(inOwn.status).toBe(201);
    for (const [path, body] of [
      ['/api/dashboard/createOrUpdateOrgBuild', { orgID: 'org-demo', buildName: 'Annex' }],
      ['/api/dashboard/updateOrgBuildFloorName', { id: 'flr-demo-ground', value: 'Renamed' }],
      ['/api/dashboard/deleteOrgBuildFloor', { id: 'bld-demo-hq', type: 'building' }],
    ] as const) {
      const result = await call(path, body, { token: accessToken });
      expect({ path, status: result.status, body: result.body }).toEqual({
        path,
        status: 403,
        body: { message: 'User is unAuthorized' },
      });
    }
  });

  it('refuses unknown ids with 404 and a type that does not match the item with 400', async () => {
    const admin = await newAdmin();
    const org = await newOrg(admin);
    const building = await newBuilding(admin, org._id);
    const floor = await newFloor(admin, building._id);
    const unknown = UNKNOWN_ID;
    const calls: [string, Record<string, unknown>, number, string][] = [
      [
        '/api/dashboard/createOrUpdateOrgBuild',
        { orgID: unknown, buildName: 'X' },
        404,
        NOT_FOUND_MESSAGES.organization,
      ],
      [
        '/api/dashboard/createOrUpdateOrgBuild',
        { buildID: unknown, buildName: 'X' },
        404,
        NOT_FOUND_MESSAGES.building,
      ],
      [
        '/api/dashboard/createOrUpdateFloor',
        { buildID: unknown, floorName: 'X' },
        404,
        NOT_FOUND_MESSAGES.building,
      ],
      // A floor is not a building.
      [
        '/api/dashboard/createOrUpdateFloor',
        { buildID: floor._id, floorName: 'X' },
        404,
        NOT_FOUND_MESSAGES.building,
      ],
      [
        '/api/dashboard/createOrUpdateFloor',
        { buildID: building._id, floorID: unknown, floorName: 'X' },
        404,
        NOT_FOUND_MESSAGES.floor,
      ],
      ['/api/dashboard/updateOrgBuildFloorName', { id: unknown, value: 'X' }, 404, ITEM_NOT_FOUND_MESSAGE],
      ['/api/dashboard/deleteOrgBuildFloor', { id: unknown, type: 'floor' }, 404, NOT_FOUND_MESSAGES.floor],
      [
        '/api/dashboard/deleteOrgBuildFloor',
        { id: building._id, type: 'floor' },
        400,
        'type does not match the item: it is a building.',
      ],
      [
        '/api/dashboard/deleteOrgBuildFloor',
        { id: floor._id, type: 'shelf' },
        400,
        'Invalid option: expected one of "organization"|"building"|"floor"',
      ],
      [
        '/api/dashboard/updateFloorPlan',
        { orgID: org._id, floorID: unknown, updateFloorObj: {} },
        404,
        NOT_FOUND_MESSAGES.floor,
      ],
    ];
    const answers = [];
    for (const [path, body] of calls) {
      const result = await call(path, body, { token: admin.token });
      answers.push([path, body, result.status, result.body.message]);
    }
    expect(answers).toEqual(calls);
  });
});

describe('renaming', () => {
  it('renames each kind of node, through each call that can', async () => {
    const admin = await newAdmin();
    const org = await newOrg(admin);
    const building = await newBuilding(admin, org._id);
    const floor = await newFloor(admin, building._id);

    const renamedOrg = await call<{ organization: { name: string; version: number } }>(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgID: org._id, orgName: 'Renamed Org', version: 0 },
      { token: admin.token },
    );
    expect(renamedOrg.status).toBe(200);
    expect(renamedOrg.body.organization).toMatchObject({ name: 'Renamed Org', version: 1 });

    const renamedBuilding = await call(
      '/api/dashboard/createOrUpdateOrgBuild',
      {
        buildID: building._id,
        buildName: 'Renamed Building',
      },
      { token: admin.token },
    );
    expect(renamedBuilding.status).toBe(200);

    const renamedFloor = await call<{ message: string }>(
      '/api/dashboard/updateOrgBuildFloorName',
      { id: floor._id, value: ' Renamed Floor ', version: 0 },
      { token: admin.token },
    );
    expect(renamedFloor.status).toBe(200);
    expect(renamedFloor.body.message).toBe('Floor name updated');

    const viaFloorCall = await call(
      '/api/dashboard/createOrUpdateFloor',
      {
        buildID: building._id,
        floorID: floor._id,
        floorName: 'Floor Again',
      },
      { token: admin.token },
    );
    expect(viaFloorCall.status).toBe(200);

    const [after] = await createdTree(admin);
    expect(after).toMatchObject({ orgName: 'Renamed Org', version: 1 });
    expect(after?.buildData[0]).toMatchObject({ buildName: 'Renamed Building', version: 1 });
    expect(after?.buildData[0]?.floors[0]).toMatchObject({ floorName: 'Floor Again', version: 2 });
  });

  it('renames a floor and sets its device types through updateFloorPlan (the floor header)', async () => {
    const admin = await newAdmin();
    const org = await newOrg(admin);
    const floor = await newFloor(admin, (await newBuilding(admin, org._id))._id);
    const base = { orgID: org._id, floorID: floor._id };

    const renamed = await call<{ message: string; floor: FloorView }>(
      '/api/dashboard/updateFloorPlan',
      { ...base, updateFloorObj: { floorName: 'Roof Garden' }, version: 0 },
      { token: admin.token },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      message: 'Floor name updated',
      floor: { ...floor, floorName: 'Roof Garden', version: 1 },
    });

    const types = await call<{ floor: FloorView }>(
      '/api/dashboard/updateFloorPlan',
      { ...base, updateFloorObj: { floorDevTypes: [5, 1, 5, 4] } },
      { token: admin.token },
    );
    expect(types.body.floor).toMatchObject({
      floorName: 'Roof Garden',
      floorDevTypes: [1, 4, 5],
      version: 2,
    });

    const empty = await call(
      '/api/dashboard/updateFloorPlan',
      { ...base, updateFloorObj: { floorName: '  ' } },
      { token: admin.token },
    );
    // The floor header's text (floor-plan specification), without the sidebar's stop.
    expect(empty).toMatchObject({ status: 400, body: { message: 'Floor name can not be empty' } });
  });

  it('never loses one of two concurrent edits: the second writer with a stale version gets a 409', async () => {
    const admin = await newAdmin();
    const org = await newOrg(admin);
    const building = await newBuilding(admin, org._id);
    const second = await newAdmin(2, [org._id]);

    // Both admins saw version 0 and rename at the same moment: exactly one wins, the other is told.
    const results = await Promise.all(
      [admin, second].map((a, i) =>
        call(
          '/api/dashboard/updateOrgBuildFloorName',
          { id: building._id, value: `Name ${i}`, version: 0 },
          {
            token: a.token,
          },
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409);
    expect(refused?.body.message).toBe(
      'Someone else changed this item in the meantime. The latest version is now shown; please try again.',
    );
    const winner = results.findIndex((r) => r.status === 200);
    expect((await createdTree(admin))[0]?.buildData[0]).toMatchObject({
      buildName: `Name ${winner}`,
      version: 1,
    });

    // A delete based on a stale version is refused too, and deletes nothing.
    const staleDelete = await call(
      '/api/dashboard/deleteOrgBuildFloor',
      { id: building._id, type: 'building', version: 0 },
      { token: second.token },
    );
    expect(staleDelete.status).toBe(409);
    expect((await createdTree(admin))[0]?.buildData).toHaveLength(1);

    // Many creates at once all land.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => newFloor(i % 2 ? admin : second, building._id, `F${i}`)),
    );
    expect((await createdTree(admin))[0]?.buildData[0]?.floors).toHaveLength(8);
  });

  it('refuses renaming a deleted node with 404', async () => {
    const admin = await newAdmin();
    const org = await newOrg(admin);
    const building = await newBuilding(admin, org._id);
    expect(
      (
        await call(
          '/api/dashboard/deleteOrgBuildFloor',
          { id: building._id, type: 'building' },
          { token: admin.token },
        )
      ).status,
    ).toBe(200);
    const rename = await call(
      '/api/dashboard/updateOrgBuildFloorName',
      { id: building._id, value: 'Back from the dead' },
      { token: admin.token },
    );
    expect(rename.status).toBe(404);
    const create = await call(
      '/api/dashboard/createOrUpdateFloor',
      { buildID: building._id, floorName: 'Orphan' },
      { token: admin.token },
    );
    expect(create.status).toBe(404);
  });
});
