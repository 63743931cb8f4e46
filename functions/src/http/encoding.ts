/**
 * Whether a request's Accept-Encoding (RFC 9110, 12.5.3) takes gzip: named (or as `x-gzip`, or
 * through `*` when gzip is not named) with a weight above 0. No header: only the identity.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let named: number | undefined;
  let any: number | undefined;
  for (const entry of header.split(',')) {
    const [coding = '', ...params] = entry.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isNaN(weight)) continue;
    if (coding === 'gzip' || coding === 'x-gzip') named = Math.max(named ?? 0, weight);
    else if (coding === '*') any = weight;
  }
  return (named ?? any ?? 0) > 0;
}
