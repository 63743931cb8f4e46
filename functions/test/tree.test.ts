import { describe, expect, it } from 'vitest';
import type { OrganizationView } from '../src/domain/tree/tree';
import { call, createUser, signIn } from './support/api';

async function organizationsOf(email: string, password?: string) {
  const session = await signIn(email, password);
  const result = await call<{ organizations: OrganizationView[] }>(
    '/api/dashboard/getUsersOrganisations',
    {},
    { token: session.accessToken },
  );
  expect(result.status).toBe(200);
  return result.body.organizations;
}

describe('getUsersOrganisations', () => {
  it('gives the tree of the user organizations, with buildings and floors in the documented shape', async () => {
    const orgs = await organizationsOf('admin@example.com');
    expect(orgs.map((o) => o.orgName)).toEqual(['Demo Org']);
    const [demo] = orgs;
    expect(demo).toMatchObject({ _id: 'org-demo', orgID: 'org-demo' });
    expect(demo?.buildData.map((b) => b.buildName)).toEqual(['Headquarters']);
    expect(demo?.buildData[0]?.floors.map((f) => f.floorName)).toEqual(['First Floor', 'Ground Floor']);
    expect(demo?.buildData[0]?.floors[0]).toMatchObject({
      _id: 'flr-demo-first',
      orgID: 'org-demo',
      buildID: 'bld-demo-hq',
    });
  });

  it('never shows organizations the user does not belong to', async () => {
    expect((await organizationsOf('viewer@example.com')).map((o) => o.orgName)).toEqual(['Demo Org']);
    expect((await organizationsOf('other@example.com')).map((o) => o.orgName)).toEqual(['Other Org']);
    expect((await organizationsOf('owner@example.com')).map((o) => o.orgName)).toEqual([
      'Demo Org',
      'Other Org',
    ]);
  });

  it('skips organizations that no longer exist and answers an empty list for a user without any', async () => {
    const stale = await createUser(0, ['org-demo', 'org-deleted-long-ago']);
    expect((await organizationsOf(stale.email, stale.password)).map((o) => o.orgID)).toEqual(['org-demo']);
    const none = await createUser(0, []);
    expect(await organizationsOf(none.email, none.password)).toEqual([]);
  });

  it('ignores the userData a client sends and answers for the signed-in user', async () => {
    const session = await signIn('viewer@example.com');
    const result = await call<{ organizations: OrganizationView[] }>(
      '/api/dashboard/getUsersOrganisations',
      { userData: { org: ['org-other'], roles: 3 } },
      { token: session.accessToken },
    );
    expect(result.body.organizations.map((o) => o.orgID)).toEqual(['org-demo']);
  });
});
