import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  type DeflatedText,
  crc32Combine,
  deflateText,
  gzipOf,
  inflateText,
  isDeflatedText,
} from '../../src/lib/gzip-splice';

/** Text deflate compresses and text it cannot: JSON-like repetition, and random base64. */
const texts = [
  '',
  '{"a":1}',
  'é€😀 not ASCII',
  JSON.stringify(Array.from({ length: 2_000 }, (_, i) => ({ _id: `floor-${i}`, floorName: `Floor ${i}` }))),
  randomBytes(100_000).toString('base64'),
];

describe('gzip bodies spliced from deflated pieces', () => {
  it('combines CRC-32s as the CRC-32 of the concatenation, whatever the lengths', () => {
    for (const [a, b] of [
      [0, 0],
      [0, 5],
      [5, 0],
      [1, 1],
      [3, 70_000],
      [100_000, 17],
    ] as const) {
      const left = randomBytes(a);
      const right = randomBytes(b);
      expect(crc32Combine(crc32(left), crc32(right), b)).toBe(crc32(Buffer.concat([left, right])));
    }
  });

  it('inflates a piece to its text, and refuses one that does not hold what it names', () => {
    for (const text of texts) expect(inflateText(deflateText(text))).toBe(text);
    const piece = deflateText('{"a":1}');
    expect(() => inflateText({ ...piece, bytes: piece.bytes + 1 })).toThrow(/does not hold/);
    expect(() => inflateText({ ...piece, crc32: piece.crc32 ^ 1 })).toThrow(/does not hold/);
  });

  it('answers one gzip body of pieces and the text between them, which gunzips to their concatenation', () => {
    const [empty, small, unicode, json, random] = texts.map(deflateText) as [DeflatedText, ...DeflatedText[]];
    const parts = ['{"organizations":[', small, ',', json, ',', random, '', empty, ',', unicode, ']}'];
    const expected = parts.map((p) => (typeof p === 'string' ? p : inflateText(p as DeflatedText))).join('');
    expect(gunzipSync(gzipOf(parts as (string | DeflatedText)[])).toString('utf8')).toBe(expected);
  });

  it('deflates long text on the way, and stores short text as it is', () => {
    const long = 'x'.repeat(200_000);
    const body = gzipOf([long, deflateText('y'), long, ',', 'é'.repeat(600)]);
    expect(gunzipSync(body).toString('utf8')).toBe(`${long}y${long},${'é'.repeat(600)}`);
    expect(body.byteLength).toBeLessThan(2_000);
    // Stored: the header, a 5-byte block header, the text, the final block and the trailer.
    expect(gzipOf(['{"a":[1,2]}']).byteLength).toBe(10 + 5 + 11 + 5 + 8);
    expect(gunzipSync(gzipOf([])).toString('utf8')).toBe('');
  });

  it('tells a whole piece from what is not one', () => {
    const piece = deflateText('{"a":1}');
    expect(isDeflatedText(piece)).toBe(true);
    // A gzip member, a piece cut short, or numbers missing (an item written by hand).
    expect(isDeflatedText({ ...piece, deflated: gzipOf(['{"a":1}']) })).toBe(false);
    expect(isDeflatedText({ ...piece, deflated: piece.deflated.subarray(0, -1) })).toBe(false);
    expect(isDeflatedText({ deflated: piece.deflated, bytes: piece.bytes })).toBe(false);
  });
});
