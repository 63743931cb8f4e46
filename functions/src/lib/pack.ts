/**
 * Splits items, in order, into runs whose JSON stays within `maxBytes` once wrapped in an envelope of
 * `envelopeBytes` (each item counted with its separating comma); an item too large even alone gets a
 * run of its own. How a burst is cut into messages under IoT Core's 128 KB.
 */
export function packBySize<T>(items: readonly T[], maxBytes: number, envelopeBytes: number): T[][] {
  const runs: T[][] = [];
  let current: T[] = [];
  let size = envelopeBytes;
  for (const item of items) {
    const bytes = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (current.length > 0 && size + bytes > maxBytes) {
      runs.push(current);
      current = [];
      size = envelopeBytes;
    }
    current.push(item);
    size += bytes;
  }
  if (current.length > 0) runs.push(current);
  return runs;
}
