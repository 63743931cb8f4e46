import { zlib } from './zlib';

/**
 * Text stored compressed so that an answer can be assembled from many such pieces without inflating
 * or deflating any of them: raw deflate (RFC 1951) ended by a sync flush, so it ends on a byte
 * boundary with no final block, with the CRC-32 and byte length of its UTF-8 text. Pieces, and the
 * text between them sent as stored blocks, concatenate into one deflate stream (each piece refers
 * back only into its own text); a gzip header and a trailer whose CRC-32 is combined from the pieces'
 * make that a gzip body (RFC 1952).
 */
export interface DeflatedText {
  deflated: Uint8Array;
  crc32: number;
  bytes: number;
}

/** What a sync flush ends with: an empty stored block. */
const SYNC_MARK = [0x00, 0x00, 0xff, 0xff] as const;

export function deflateText(text: string): DeflatedText {
  const raw = Buffer.from(text, 'utf8');
  const { constants, crc32, deflateRawSync } = zlib();
  return {
    deflated: deflateRawSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }),
    crc32: crc32(raw),
    bytes: raw.byteLength,
  };
}

/** Whether `piece` is whole: sync-flushed, and its numbers are numbers (what a store gave back). */
export function isDeflatedText(piece: { [K in keyof DeflatedText]?: unknown }): piece is DeflatedText {
  const { deflated, crc32: crc, bytes } = piece;
  return (
    deflated instanceof Uint8Array &&
    deflated.byteLength >= SYNC_MARK.length &&
    SYNC_MARK.every((byte, i) => deflated[deflated.byteLength - SYNC_MARK.length + i] === byte) &&
    Number.isInteger(crc) &&
    Number.isInteger(bytes)
  );
}

/** The text of a piece; throws if what it inflates to is not what it says it holds. */
export function inflateText(piece: DeflatedText): string {
  const { constants, crc32, inflateRawSync } = zlib();
  const raw = inflateRawSync(piece.deflated, { finishFlush: constants.Z_SYNC_FLUSH });
  if (raw.byteLength !== piece.bytes || crc32(raw) !== piece.crc32) {
    throw new Error(`a deflated text does not hold the ${piece.bytes} bytes it names`);
  }
  return raw.toString('utf8');
}

// gzip: deflate, no flags, no modification time, no extra flags, unknown operating system.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** An empty stored block marked final: the end of the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
/** `raw` (at most 65,535 bytes) as one non-final stored block, from a byte boundary. */
function storedBlock(raw: Buffer): Buffer[] {
  const header = Buffer.alloc(5);
  header.writeUInt16LE(raw.byteLength, 1);
  header.writeUInt16LE(~raw.byteLength & 0xffff, 3);
  return [header, raw];
}

/**
 * Text up to this many characters goes as it is, in one stored block (UTF-8 takes at most 3 bytes a
 * character: far below a stored block's 65,535); longer text is deflated on the way.
 */
const STORED_TEXT_MAX = 1024;

/**
 * One gzip body of `parts` in order: pieces as they are stored, the short text between them as it
 * is. Text longer than that (a view read from its partition, not from a stored piece) is deflated
 * here, so the body stays compressed whatever it holds.
 */
export function gzipOf(parts: readonly (string | DeflatedText)[]): Buffer {
  const { crc32 } = zlib();
  const chunks: Uint8Array[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  for (const text of parts) {
    const part = typeof text === 'string' && text.length > STORED_TEXT_MAX ? deflateText(text) : text;
    if (typeof part === 'string') {
      const raw = Buffer.from(part, 'utf8');
      if (raw.byteLength > 0) chunks.push(...storedBlock(raw));
      crc = crc32(raw, crc);
      size += raw.byteLength;
    } else {
      chunks.push(part.deflated);
      crc = crc32Combine(crc, part.crc32, part.bytes);
      size += part.bytes;
    }
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // ISIZE is the length modulo 2^32.
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  chunks.push(FINAL_BLOCK, trailer);
  return Buffer.concat(chunks);
}

// CRC-32 of a concatenation from its parts' CRCs (zlib's crc32_combine): polynomials over GF(2),
// bit-reflected as the CRC is, multiplied modulo the CRC's polynomial.
const POLY = 0xedb88320;

/** a * b modulo the polynomial; `a` is not zero. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1] as number, X2N[k - 1] as number));

/** x^(n * 2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000; // x^0
  for (; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = multModP(X2N[k & 31] as number, p);
  }
  return p;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, bytesB: number): number {
  return (multModP(x2nModP(bytesB, 3), crcA >>> 0) ^ crcB) >>> 0;
}
