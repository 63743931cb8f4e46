import { describe, expect, it } from 'vitest';
import { tooManyAttemptsText } from '@argentum/contracts';
import { decodeMailJob, encodeMailJob } from '../../src/domain/auth/mail-jobs';
import type { Limit } from '../../src/domain/auth/ports';
import { addressKey, lockEnd } from '../../src/domain/auth/throttle';
import { clientAddress } from '../../src/http/client-address';
import type { ApiEvent } from '../../src/http/types';

describe('the lock arithmetic', () => {
  const limit: Limit = { maxAttempts: 5, windowSeconds: 900, lockSeconds: 30, maxLockSeconds: 900 };
  const at = new Date('2025-01-01T00:00:00Z');
  const lockSeconds = (count: number) => {
    const end = lockEnd({ count, lastAt: at, closesAt: at }, limit);
    return end ? (end.getTime() - at.getTime()) / 1000 : 0;
  };

  it('locks at the limit for 30 s, doubling per further failure, never beyond 15 minutes', () => {
    expect([1, 4, 5, 6, 7, 8, 9, 10, 11, 1000].map(lockSeconds)).toEqual([
      0, 0, 30, 60, 120, 240, 480, 900, 900, 900,
    ]);
  });

  it('counts an IPv4-mapped address as IPv4 and an IPv6 address by its /64', () => {
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey(' 198.51.100.7 ')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:0:12::1')).toBe('2001:db8:0:12::/64');
    expect(addressKey('2001:DB8:0000:0012:ffff:1:2:3')).toBe('2001:db8:0:12::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('not an address')).toBe('not an address');
  });

  it('words the wait in seconds, then in whole minutes', () => {
    expect(tooManyAttemptsText(1)).toBe('Too many attempts. Please try again in 1 second.');
    expect(tooManyAttemptsText(29.2)).toBe('Too many attempts. Please try again in 30 seconds.');
    expect(tooManyAttemptsText(60)).toBe('Too many attempts. Please try again in 1 minute.');
    expect(tooManyAttemptsText(61)).toBe('Too many attempts. Please try again in 2 minutes.');
    expect(tooManyAttemptsText(900)).toBe('Too many attempts. Please try again in 15 minutes.');
  });
});

describe('mail jobs', () => {
  it('carry only the e-mail and survive the queue as they were sent; anything else is no job', () => {
    const job = { kind: 'password-reset' as const, email: 'someone@example.com' };
    expect(JSON.parse(encodeMailJob(job))).toEqual(job);
    expect(decodeMailJob(encodeMailJob(job))).toEqual(job);
    for (const body of [
      '',
      'not json',
      '{}',
      '{"kind":"password-reset"}',
      '{"kind":"other","email":"a@b.c"}',
    ])
      expect(decodeMailJob(body)).toBeUndefined();
  });
});

describe('the client address', () => {
  const secret = 'origin-secret-0123456789';
  const event = (sourceIp: string, headers: Record<string, string>) =>
    ({ headers, requestContext: { http: { sourceIp } } }) as unknown as ApiEvent;
  const edge = '130.176.0.1';

  it("is the viewer's address CloudFront passes on, with CloudFront's secret", () => {
    const viaCloudFront = { 'x-origin-verify': secret, 'x-viewer-address': '2001:db8::7' };
    expect(clientAddress(event(edge, viaCloudFront), secret)).toBe('2001:db8::7');
    expect(
      clientAddress(event(edge, { ...viaCloudFront, 'x-viewer-address': ' 198.51.100.4 ' }), secret),
    ).toBe('198.51.100.4');
  });

  it("is API Gateway's source address otherwise", () => {
    const viewer = { 'x-viewer-address': '198.51.100.4' };
    expect(clientAddress(event(edge, viewer), secret)).toBe(edge);
    expect(clientAddress(event(edge, { ...viewer, 'x-origin-verify': `${secret}x` }), secret)).toBe(edge);
    expect(clientAddress(event(edge, { ...viewer, 'x-origin-verify': '' }), secret)).toBe(edge);
    // Without a configured secret nothing is believed, not even an empty secret.
    expect(clientAddress(event(edge, { ...viewer, 'x-origin-verify': '' }), undefined)).toBe(edge);
    expect(clientAddress(event(edge, { ...viewer, 'x-origin-verify': secret }), undefined)).toBe(edge);
    // With the secret but no address, or something that is no address.
    expect(clientAddress(event(edge, { 'x-origin-verify': secret }), secret)).toBe(edge);
    expect(
      clientAddress(
        event(edge, { 'x-origin-verify': secret, 'x-viewer-address': '1.2.3.4, 5.6.7.8' }),
        secret,
      ),
    ).toBe(edge);
  });
});
