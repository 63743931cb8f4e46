import type { LogoType } from '@argentum/contracts';
import { zlib } from '../../lib/zlib';

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  Buffer.from(
    bytes.buffer,
    bytes.byteOffset + start,
    Math.max(0, Math.min(length, bytes.length - start)),
  ).toString('latin1');

const uint32be = (bytes: Uint8Array, at: number) =>
  ((bytes[at] ?? 0) * 2 ** 24 +
    ((bytes[at + 1] ?? 0) << 16) +
    ((bytes[at + 2] ?? 0) << 8) +
    (bytes[at + 3] ?? 0)) >>>
  0;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG whose chunks all parse and check out (CRC), starting with IHDR and ending with IEND. */
function isPng(bytes: Uint8Array): boolean {
  if (!PNG_SIGNATURE.every((value, index) => bytes[index] === value)) return false;
  const { crc32 } = zlib();
  let at = 8;
  let first = true;
  while (at + 12 <= bytes.length) {
    const length = uint32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    const end = at + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || end > bytes.length) return false;
    if (first && (type !== 'IHDR' || length !== 13)) return false;
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== uint32be(bytes, at + 8 + length)) return false;
    if (type === 'IEND') return true;
    first = false;
    at = end;
  }
  return false;
}

/** A JPEG: SOI, well-formed marker segments up to the scan with a frame header before it, EOI at the end. */
function isJpeg(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return false;
  let at = 2;
  let frame = false;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = ((bytes[at + 2] ?? 0) << 8) + (bytes[at + 3] ?? 0);
    if (length < 2) return false;
    if (marker === 0xda) break;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      frame = true;
    at += 2 + length;
  }
  if (!frame) return false;
  // The end-of-image marker, allowing for a little padding after it.
  const tail = bytes.subarray(Math.max(0, bytes.length - 64));
  for (let i = tail.length - 2; i >= 0; i--) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return true;
  return false;
}

/** A GIF: signature, logical screen descriptor, trailer byte at the end. */
function isGif(bytes: Uint8Array): boolean {
  const signature = ascii(bytes, 0, 6);
  return (signature === 'GIF87a' || signature === 'GIF89a') && bytes.length > 13 && bytes.at(-1) === 0x3b;
}

/** A WebP: a RIFF container of type WEBP whose size matches, holding a VP8, VP8L or VP8X chunk. */
function isWebp(bytes: Uint8Array): boolean {
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return false;
  const riffSize =
    (bytes[4] ?? 0) + ((bytes[5] ?? 0) << 8) + ((bytes[6] ?? 0) << 16) + (bytes[7] ?? 0) * 2 ** 24;
  if (riffSize + 8 !== bytes.length && riffSize + 9 !== bytes.length) return false;
  return ['VP8 ', 'VP8L', 'VP8X'].includes(ascii(bytes, 12, 4));
}

/** The image type of these bytes judged by their content, never by a name or a declared type. */
export function detectLogoType(bytes: Uint8Array): LogoType | undefined {
  if (isPng(bytes)) return 'image/png';
  if (isJpeg(bytes)) return 'image/jpeg';
  if (isGif(bytes)) return 'image/gif';
  if (isWebp(bytes)) return 'image/webp';
  return undefined;
}
