import { crc32, deflateSync } from 'node:zlib';

/** A valid PNG of `size` x `size` pixels, all of the given colour. */
export function png(rgb: [number, number, number] = [200, 30, 30], size = 1): Buffer {
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
  const row = [0, ...Array.from({ length: size }, () => rgb).flat()];
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(Array.from({ length: size }, () => row).flat()))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
