import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { describe, expect, it } from 'vitest';
import { makePlanSigningKeys, verifySignedUrl } from '../../local/plan-edge';

/**
 * The twin of CloudFront's signed URL check on its own: URLs made by the AWS SDK's signer (what the
 * API uses) pass until they expire; a forged, tampered, re-hosted, expired or foreign-key URL does not.
 */
const keys = makePlanSigningKeys();
const group = new Map([[keys.keyPairId, keys.publicKey]]);
const PLAN = 'http://localhost:3000/floorplans/org-1/floor-1.svg';
const now = new Date('2026-11-24T04:00:00Z');
const inFiveMinutes = new Date(now.getTime() + 300_000);

const signed = (options: { url?: string; algorithm?: 'SHA1' | 'SHA256'; privateKey?: string } = {}) =>
  new URL(
    getSignedUrl({
      url: options.url ?? PLAN,
      keyPairId: keys.keyPairId,
      privateKey: options.privateKey ?? keys.privateKeyPem,
      dateLessThan: inFiveMinutes,
      algorithm: options.algorithm ?? 'SHA256',
    }),
  );

describe('the plan edge checks signed URLs as CloudFront does', () => {
  it('lets a URL signed with a key of the group pass, SHA-256 or SHA-1, until it expires', () => {
    expect(verifySignedUrl(signed(), group, now)).toEqual({ ok: true });
    expect(signed().searchParams.get('Hash-Algorithm')).toBe('SHA256');
    expect(verifySignedUrl(signed({ algorithm: 'SHA1' }), group, now)).toEqual({ ok: true });
    expect(verifySignedUrl(signed(), group, new Date(inFiveMinutes.getTime() - 1000))).toEqual({ ok: true });
    expect(verifySignedUrl(signed(), group, inFiveMinutes)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a tampered signature, path, expiry, host or algorithm', () => {
    const url = signed();
    const forged = new URL(url);
    const signature = forged.searchParams.get('Signature') ?? '';
    forged.searchParams.set(
      'Signature',
      `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`,
    );
    expect(verifySignedUrl(forged, group, now)).toEqual({ ok: false, reason: 'signature does not match' });

    const otherPlan = new URL(url);
    otherPlan.pathname = '/floorplans/org-2/floor-9.svg';
    expect(verifySignedUrl(otherPlan, group, now).ok).toBe(false);

    const later = new URL(url);
    later.searchParams.set('Expires', String(Number(url.searchParams.get('Expires')) + 3600));
    expect(verifySignedUrl(later, group, now).ok).toBe(false);

    const elsewhere = new URL(url);
    elsewhere.host = 'evil.test';
    expect(verifySignedUrl(elsewhere, group, now).ok).toBe(false);

    const extra = new URL(url);
    extra.searchParams.set('response-content-type', 'text/html');
    expect(verifySignedUrl(extra, group, now).ok).toBe(false);

    const malformed = new URL(url);
    malformed.search = malformed.search.replace(/Signature=[^&]*/, 'Signature=%E0%A4%A');
    expect(verifySignedUrl(malformed, group, now)).toEqual({ ok: false, reason: 'malformed Signature' });

    const sha1Claimed = new URL(url);
    sha1Claimed.searchParams.delete('Hash-Algorithm');
    expect(verifySignedUrl(sha1Claimed, group, now).ok).toBe(false);
  });

  it('refuses a key outside the group, a missing parameter and a custom policy', () => {
    const stranger = makePlanSigningKeys();
    const foreign = signed({ privateKey: stranger.privateKeyPem });
    expect(verifySignedUrl(foreign, group, now)).toEqual({ ok: false, reason: 'signature does not match' });
    const unknownId = signed();
    unknownId.searchParams.set('Key-Pair-Id', stranger.keyPairId);
    expect(verifySignedUrl(unknownId, group, now)).toEqual({ ok: false, reason: 'unknown key pair id' });
    for (const name of ['Expires', 'Signature', 'Key-Pair-Id']) {
      const missing = signed();
      missing.searchParams.delete(name);
      expect(verifySignedUrl(missing, group, now), name).toEqual({
        ok: false,
        reason: 'missing signing parameters',
      });
    }
    const custom = new URL(
      getSignedUrl({
        keyPairId: keys.keyPairId,
        privateKey: keys.privateKeyPem,
        policy: JSON.stringify({
          Statement: [
            {
              Resource: 'http://localhost:3000/floorplans/*',
              Condition: { DateLessThan: { 'AWS:EpochTime': 2e9 } },
            },
          ],
        }),
      }),
    );
    expect(verifySignedUrl(custom, group, now)).toEqual({
      ok: false,
      reason: 'custom policies are not issued',
    });
  });
});
