import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateText } from '../../src/lib/gzip-splice';
import { JsonText } from '../../src/lib/json-text';

describe('JSON text answered as it is', () => {
  const views = [
    new JsonText<{ n: number }>(deflateText('{"n":1}')),
    new JsonText<{ n: number }>('{"n":2}'),
    new JsonText<{ n: number }>(deflateText(JSON.stringify({ n: 3, pad: 'é'.repeat(5_000) }))),
  ];

  it('joins stored and plain fragments into one document, as text and as the same gzip body', () => {
    const answer = JsonText.join<{ organizations: unknown[] }>(
      '{"organizations":',
      JsonText.array(views),
      '}',
    );
    expect(answer.deflated).toBe(true);
    const parsed = JSON.parse(answer.text) as { organizations: { n: number }[] };
    expect(parsed.organizations.map((o) => o.n)).toEqual([1, 2, 3]);
    expect(gunzipSync(answer.gzip()).toString('utf8')).toBe(answer.text);
    expect(JsonText.array([]).text).toBe('[]');
  });

  it('says when nothing of it is stored deflated (then it is answered as text only)', () => {
    expect(JsonText.join('{"a":', new JsonText('[1]'), '}').deflated).toBe(false);
  });
});
