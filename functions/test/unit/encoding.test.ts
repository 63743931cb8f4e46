import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../src/http/encoding';

describe('Accept-Encoding', () => {
  it('takes gzip when it is named, as x-gzip too, or through * with a weight above 0', () => {
    for (const header of [
      'gzip',
      'GZIP',
      'gzip, deflate, br, zstd',
      'br;q=1.0, gzip;q=0.1',
      'x-gzip',
      '*',
      'br, *;q=0.5',
    ]) {
      expect(acceptsGzip(header), header).toBe(true);
    }
  });

  it('does not without the header, for the identity alone, or when gzip weighs 0 (even with *)', () => {
    for (const header of [
      undefined,
      '',
      'identity',
      'br',
      'deflate, br',
      'gzip;q=0',
      'gzip; q=0.000',
      '*;q=0',
      '*, gzip;q=0',
      'gzip;q=nonsense',
    ]) {
      expect(acceptsGzip(header), String(header)).toBe(false);
    }
  });
});
