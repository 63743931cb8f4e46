import { crc32, deflateSync } from 'node:zlib';

type Rgb = [number, number, number];

/**
 * A valid PNG of `size` x `size` pixels: all of one colour, or each pixel's colour from a function.
 * `commentBytes` adds a text chunk that makes the file that much larger (the picture stays the same).
 */
export function png(
  colour: Rgb | ((x: number, y: number) => Rgb) = [200, 30, 30],
  size = 1,
  commentBytes = 0,
): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const pixel = typeof colour === 'function' ? colour : () => colour;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter type: none
    for (let x = 0; x < size; x++) rows.push(...pixel(x, y));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(commentBytes > 0
      ? [chunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(commentBytes, 'a')]))]
      : []),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
