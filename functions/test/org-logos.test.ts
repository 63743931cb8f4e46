import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { logoStagingFolder } from '../src/domain/files/keys';
import { detectLogoType } from '../src/domain/users/image-type';
import { s3FileStore } from '../src/stores/files';
import { call, createOwnOrganization, createUser, signIn, stack, type TestUser } from './support/api';
import { png } from './support/png';

const UNAUTHORIZED = { message: 'User is unAuthorized' };
const NO_SUCH_ORGANIZATION = { message: 'This organization does not exist (it may have been deleted).' };
const NO_SUCH_UPLOAD = {
  message: 'This upload does not exist (it may have expired). Please upload the file again.',
};
const INVALID_TYPE = { message: 'Invalid file type' };
const TOO_LARGE = { message: 'File size too large!.' };
const UPLOADED = { message: 'Organization Logo uploaded successfully.', logoType: 'image/png' };
const NO_LOGO = { data: null, logoType: null };

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Upload {
  url: string;
  fields: Record<string, string>;
  key: string;
  expiresIn: number;
}

const tokenOf = async (user: TestUser) => (await signIn(user.email, user.password)).accessToken;
/** A fresh organization and an admin of it, its creator (no other test touches its logo). */
async function orgWithAdmin() {
  const admin = await createUser(2, [], 'Logo Admin');
  const orgId = await createOwnOrganization(admin.userId, 2, 'Logo Org');
  return { orgId, admin, token: await tokenOf(admin) };
}

const createUpload = (token: string, org: string, contentType: string, size: number) =>
  call<Upload>('/api/dashboard/createOrgLogoUpload', { org, contentType, size }, { token });
const commit = (token: string, org: string, file: string) =>
  call('/api/dashboard/setOrgLogo', { file, org }, { token });
const logoOf = (token: string, orgID: string) =>
  call<{ data: string | null; logoType: string | null }>(
    '/api/dashboard/getOrgLogoFromS3',
    { orgID },
    { token },
  );

/** Posts a file with the upload's form, as the browser does: every field, then the file last. */
async function post(upload: Upload, bytes: Buffer, type: string): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'logo.png');
  const response = await fetch(upload.url, { method: 'POST', body: form });
  await response.arrayBuffer();
  return response.status;
}

/** Presigns and posts a file for the organization; the key to commit. */
async function stage(token: string, orgId: string, bytes: Buffer, type = 'image/png'): Promise<string> {
  const upload = await createUpload(token, orgId, type, bytes.length);
  expect(upload.status).toBe(200);
  expect(await post(upload.body, bytes, type)).toBe(204);
  return upload.body.key;
}

/** The bytes and type the organization's logo URL serves. */
async function servedLogo(token: string, orgId: string) {
  const logo = await logoOf(token, orgId);
  expect(logo.status).toBe(200);
  if (logo.body.data === null) throw new Error(`${orgId} has no logo`);
  const response = await fetch(logo.body.data);
  expect(response.status).toBe(200);
  return {
    logoType: logo.body.logoType,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('logo upload: presigned POST, then commit', () => {
  it('gives an admin of the organization a form whose policy fixes key, size range, type and expiry', async () => {
    const { orgId, token } = await orgWithAdmin();
    const before = Date.now();
    const upload = await createUpload(token, orgId, 'image/png', 1234);
    expect(upload.status).toBe(200);
    const { url, fields, key, expiresIn } = upload.body;
    expect(key).toMatch(new RegExp(`^uploads/logos/${orgId}/[0-9a-f-]{36}$`));
    expect(expiresIn).toBe(300);
    // Locally the form posts to the local S3 (path-style); the browser reaches it as the handlers do.
    expect(url).toBe(`${stack.env.AWS_ENDPOINT_URL_S3}/${stack.env.FILES_BUCKET}`);
    expect(fields).toMatchObject({ key, 'Content-Type': 'image/png', 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' });

    const policy = JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { key },
        { bucket: stack.env.FILES_BUCKET },
        { 'Content-Type': 'image/png' },
        ['content-length-range', 1, 10_000_000],
      ]),
    );
    const lifetime = Date.parse(policy.expiration) - before;
    expect(lifetime).toBeGreaterThan(295_000);
    expect(lifetime).toBeLessThanOrEqual(301_000);

    // The browser's preflight for the post is allowed from the app's origin.
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: stack.url, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

    expect(await post(upload.body, png(), 'image/png')).toBe(204);
    expect(await s3FileStore.describe(key)).toMatchObject({ size: png().length });
  });

  it('commits a real PNG: it becomes the logo, served from a short-lived URL as image/png', async () => {
    const { orgId, token } = await orgWithAdmin();
    const logo = png([10, 120, 200]);
    const key = await stage(token, orgId, logo);
    const result = await commit(token, orgId, key);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(UPLOADED);
    // The staged object is gone: the same key cannot be committed twice.
    expect(await s3FileStore.describe(key)).toBeUndefined();
    expect((await commit(token, orgId, key)).body).toEqual(NO_SUCH_UPLOAD);

    // Every member reads it, whatever their role.
    const reader = await createUser(0, [orgId]);
    const served = await servedLogo(await tokenOf(reader), orgId);
    expect(served).toEqual({ logoType: 'image/png', contentType: 'image/png', bytes: logo });
    const url = new URL(String((await logoOf(token, orgId)).body.data));
    expect(url.pathname).toBe(`/${stack.env.FILES_BUCKET}/logos/${orgId}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('judges by content, not by the declared type: a GIF declared as PNG is stored as a GIF', async () => {
    const { orgId, token } = await orgWithAdmin();
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(8), Buffer.from([0x3b])]);
    const key = await stage(token, orgId, gif, 'image/png');
    expect((await commit(token, orgId, key)).body).toEqual({ ...UPLOADED, logoType: 'image/gif' });
    expect(await servedLogo(token, orgId)).toEqual({
      logoType: 'image/gif',
      contentType: 'image/gif',
      bytes: gif,
    });
  });

  it('round-trips a 9.9 MB logo: the file goes to S3, never through the API', async () => {
    const { orgId, token } = await orgWithAdmin();
    const logo = png([0, 0, 0], 1, 9_900_000);
    expect(logo.length).toBeGreaterThan(9_900_000);
    expect(logo.length).toBeLessThanOrEqual(10_000_000);
    expect(detectLogoType(logo)).toBe('image/png');
    const key = await stage(token, orgId, logo);
    expect((await commit(token, orgId, key)).body).toEqual(UPLOADED);
    const served = await servedLogo(token, orgId);
    expect(served.contentType).toBe('image/png');
    expect(served.bytes.length).toBe(logo.length);
    expect(sha256(served.bytes)).toBe(sha256(logo));
  });

  it('refuses a script or page renamed .png: 400, the upload is removed and the previous logo stays', async () => {
    const { orgId, token } = await orgWithAdmin();
    const previous = png([1, 2, 3]);
    expect((await commit(token, orgId, await stage(token, orgId, previous))).status).toBe(200);

    const pngHeaderOnHtml = Buffer.concat([
      png().subarray(0, 8),
      Buffer.from('<html><script>alert(1)</script></html>'),
    ]);
    for (const [what, bytes] of [
      ['an HTML page', Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>')],
      ['a script', Buffer.from('#!/bin/sh\nrm -rf /\n')],
      ['HTML behind a PNG signature', pngHeaderOnHtml],
      ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ] as const) {
      const key = await stage(token, orgId, bytes, 'image/png');
      const result = await commit(token, orgId, key);
      expect(result.status, what).toBe(400);
      expect(result.body, what).toEqual(INVALID_TYPE);
      expect(await s3FileStore.describe(key), what).toBeUndefined();
    }
    expect(await servedLogo(token, orgId)).toEqual({
      logoType: 'image/png',
      contentType: 'image/png',
      bytes: previous,
    });
  });

  it('refuses a staged object above 10,000,000 bytes and removes it', async () => {
    const { orgId, token } = await orgWithAdmin();
    // S3 refuses such a post (content-length-range); whatever got there anyway is checked again.
    const key = `${logoStagingFolder(orgId)}${randomUUID()}`;
    await s3FileStore.write(key, png([9, 9, 9], 1, 10_000_000), 'image/png');
    const result = await commit(token, orgId, key);
    expect(result.status).toBe(400);
    expect(result.body).toEqual(TOO_LARGE);
    expect(await s3FileStore.describe(key)).toBeUndefined();
    expect((await logoOf(token, orgId)).body).toEqual(NO_LOGO);
  });

  it('refuses forms for other types and sizes with the documented texts', async () => {
    const { orgId, token } = await orgWithAdmin();
    for (const [contentType, size, answer] of [
      ['image/png', 10_000_001, TOO_LARGE],
      ['image/svg+xml', 100, INVALID_TYPE],
      ['text/html', 100, INVALID_TYPE],
      ['image/png', 0, INVALID_TYPE],
    ] as const) {
      const result = await createUpload(token, orgId, contentType, size);
      expect(result.status, `${contentType} ${size}`).toBe(400);
      expect(result.body, `${contentType} ${size}`).toEqual(answer);
    }
    expect((await createUpload(token, orgId, 'image/webp', 10_000_000)).status).toBe(200);
  });
});

describe('logo upload: who may', () => {
  it('refuses members below admin with 403', async () => {
    const { orgId, token } = await orgWithAdmin();
    const key = await stage(token, orgId, png());
    for (const role of [0, 1] as const) {
      const member = await tokenOf(await createUser(role, [orgId]));
      const form = await createUpload(member, orgId, 'image/png', 100);
      expect(form.status, `role ${role}`).toBe(403);
      expect(form.body).toEqual(UNAUTHORIZED);
      const committed = await commit(member, orgId, key);
      expect(committed.status, `role ${role}`).toBe(403);
      expect(committed.body).toEqual(UNAUTHORIZED);
    }
    // Nothing was taken: the admin still commits it.
    expect((await commit(token, orgId, key)).body).toEqual(UPLOADED);
  });

  it('decides with the role in the organization asked about', async () => {
    const { orgId, token } = await orgWithAdmin();
    await commit(token, orgId, await stage(token, orgId, png([4, 5, 6])));
    // An admin of another organization, and only a reader of this one.
    const other = await orgWithAdmin();
    const readerToken = await tokenOf(await createUser({ [orgId]: 0, [other.orgId]: 2 }));
    expect((await createUpload(readerToken, other.orgId, 'image/png', 100)).status).toBe(200);
    const form = await createUpload(readerToken, orgId, 'image/png', 100);
    expect([form.status, form.body]).toEqual([403, UNAUTHORIZED]);
    expect((await servedLogo(readerToken, orgId)).bytes).toEqual(png([4, 5, 6]));
  });

  it("answers someone else's organization exactly like one that does not exist", async () => {
    const { token } = await orgWithAdmin();
    const unknown = `org-${randomUUID()}`;
    for (const [what, request] of [
      ['form', (org: string) => createUpload(token, org, 'image/png', 100)],
      ['commit', (org: string) => commit(token, org, `${logoStagingFolder(org)}${randomUUID()}`)],
      ['read', (org: string) => logoOf(token, org)],
    ] as const) {
      const foreign = await request('org-demo');
      const missing = await request(unknown);
      expect(foreign.status, what).toBe(404);
      expect(foreign.body, what).toEqual(NO_SUCH_ORGANIZATION);
      expect(missing.status, what).toBe(404);
      expect(missing.body, what).toEqual(foreign.body);
    }
  });

  it("refuses another organization's upload and keys outside the staging prefix like an unknown upload", async () => {
    const a = await orgWithAdmin();
    const b = await orgWithAdmin();
    const keyOfA = await stage(a.token, a.orgId, png());
    const unknownKey = `${logoStagingFolder(b.orgId)}${randomUUID()}`;
    const unknown = await commit(b.token, b.orgId, unknownKey);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NO_SUCH_UPLOAD);

    for (const key of [
      keyOfA,
      `logos/${b.orgId}`,
      `logos/${a.orgId}`,
      `floorplans/${b.orgId}/floor.svg`,
      `uploads/logos/${b.orgId}/../../logos/${b.orgId}`,
      `${logoStagingFolder(b.orgId)}${randomUUID()}/more`,
      `uploads/${randomUUID()}`,
      'data:image/png;base64,iVBORw0KGgo=',
    ]) {
      const result = await commit(b.token, b.orgId, key);
      expect(result.status, key).toBe(404);
      expect(result.body, key).toEqual(unknown.body);
    }
    // The upload of A is untouched, and only A's admin commits it to A.
    expect((await commit(a.token, a.orgId, keyOfA)).body).toEqual(UPLOADED);
    expect((await logoOf(b.token, b.orgId)).body).toEqual(NO_LOGO);
  });
});

describe('logo type detection', () => {
  it('recognizes PNG, JPEG, GIF and WebP by content and nothing else', () => {
    expect(detectLogoType(png())).toBe('image/png');
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xda, 0x00,
      0x02, 0x01, 0x02, 0xff, 0xd9,
    ]);
    expect(detectLogoType(jpeg)).toBe('image/jpeg');
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(8), Buffer.from([0x3b])]);
    expect(detectLogoType(gif)).toBe('image/gif');
    const webpBody = Buffer.concat([Buffer.from('WEBPVP8L', 'latin1'), Buffer.alloc(8)]);
    const riffSize = Buffer.alloc(4);
    riffSize.writeUInt32LE(webpBody.length);
    expect(detectLogoType(Buffer.concat([Buffer.from('RIFF', 'latin1'), riffSize, webpBody]))).toBe(
      'image/webp',
    );

    const corrupted = png();
    corrupted.writeUInt8(corrupted.readUInt8(corrupted.length - 20) ^ 0xff, corrupted.length - 20);
    expect(detectLogoType(corrupted)).toBeUndefined();
    expect(detectLogoType(jpeg.subarray(0, 12))).toBeUndefined();
    expect(detectLogoType(Buffer.from('<svg/>'))).toBeUndefined();
    expect(detectLogoType(Buffer.alloc(0))).toBeUndefined();
  });
});
