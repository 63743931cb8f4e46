import { describe, expect, it } from 'vitest';
import { detectLogoType } from '../../src/domain/users/image-type';
import { png } from '../support/png';

const jpeg = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xda, 0x00, 0x02,
  0x01, 0x02, 0xff, 0xd9,
]);
const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(8), Buffer.from([0x3b])]);

function webp(): Buffer {
  const body = Buffer.concat([Buffer.from('WEBPVP8L', 'latin1'), Buffer.alloc(8)]);
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), riffSize, body]);
}

describe('logo type detection', () => {
  it.each([
    ['a PNG', png(), 'image/png'],
    ['a larger PNG', png([10, 120, 200], 48), 'image/png'],
    ['a JPEG', jpeg, 'image/jpeg'],
    ['a GIF', gif, 'image/gif'],
    ['a WebP', webp(), 'image/webp'],
  ] as const)('recognizes %s by its content', (_what, bytes, type) => {
    expect(detectLogoType(bytes)).toBe(type);
  });

  function corruptedPng(): Buffer {
    const bytes = png();
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 20) ^ 0xff, bytes.length - 20);
    return bytes;
  }

  it.each([
    ['a PNG with a broken chunk checksum', corruptedPng()],
    ['a PNG header on text', Buffer.concat([png().subarray(0, 8), Buffer.from('not really an image')])],
    ['a truncated JPEG', jpeg.subarray(0, 12)],
    ['a GIF without its trailer', gif.subarray(0, -1)],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['text', Buffer.from('Hello, this is a text file renamed logo.png\n')],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', (_what, bytes) => {
    expect(detectLogoType(bytes)).toBeUndefined();
  });
});
