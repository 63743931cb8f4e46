import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { OrganizationView } from '../src/domain/tree/tree';
import { call, createUser, signInAs, stack, type TestUser } from './support/api';

async function organizationsOf(user: TestUser) {
  const session = await signInAs(user);
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
    const orgs = await organizationsOf(await createUser(0, ['org-demo']));
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
    const names = async (user: TestUser) => (await organizationsOf(user)).map((o) => o.orgName);
    expect(await names(await createUser(0, ['org-demo']))).toEqual(['Demo Org']);
    expect(await names(await createUser(2, ['org-other']))).toEqual(['Other Org']);
    expect(await names(await createUser(3, ['org-demo', 'org-other']))).toEqual(['Demo Org', 'Other Org']);
  });

  it('skips organizations that no longer exist and answers an empty list for a user without any', async () => {
    const stale = await createUser(0, ['org-demo', 'org-deleted-long-ago']);
    expect((await organizationsOf(stale)).map((o) => o.orgID)).toEqual(['org-demo']);
    expect(await organizationsOf(await createUser(0, []))).toEqual([]);
  });

  it('ignores the userData a client sends and answers for the signed-in user', async () => {
    const session = await signInAs(await createUser(0, ['org-demo']));
    const result = await call<{ organizations: OrganizationView[] }>(
      '/api/dashboard/getUsersOrganisations',
      { userData: { org: ['org-other'], roles: 3 } },
      { token: session.accessToken },
    );
    expect(result.status).toBe(200);
    expect(result.body.organizations.map((o) => o.orgID)).toEqual(['org-demo']);
  });

  it('answers gzip to a caller that accepts it, spliced from the stored summaries, and the same JSON as text to one that does not', async () => {
    const session = await signInAs(await createUser(3, ['org-demo', 'org-other']));
    const raw = (acceptEncoding?: string) =>
      new Promise<{ status?: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = request(
          `${stack.url}/api/dashboard/getUsersOrganisations`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${session.accessToken}`,
              ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    const plain = await raw();
    expect(plain.status).toBe(200);
    // As API Gateway answers: the whole length given, not chunked.
    expect(plain.headers['content-length']).toBe(String(plain.body.byteLength));
    expect(plain.headers['transfer-encoding']).toBeUndefined();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const answer = JSON.parse(plain.body.toString('utf8')) as { organizations: OrganizationView[] };
    expect(answer.organizations.map((o) => o.orgName)).toEqual(['Demo Org', 'Other Org']);
    for (const accepted of ['gzip, deflate, br', 'br;q=1, gzip;q=0.5', '*']) {
      const zipped = await raw(accepted);
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-length']).toBe(String(zipped.body.byteLength));
      expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(zipped.body.byteLength).toBeLessThan(plain.body.byteLength);
      expect(gunzipSync(zipped.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    }
    for (const refused of ['identity', 'gzip;q=0', 'br', '*;q=0']) {
      expect((await raw(refused)).headers['content-encoding']).toBeUndefined();
    }
  });
});
