import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable, judge, type ReportRow, runBenches } from './report';
import { isTransient, withRetries } from './types';

/** A server that resets the socket of its first `resets` requests, then answers 200. */
let resets = 0;
let requests = 0;
const server = createServer((request, response) => {
  requests++;
  if (resets > 0) {
    resets--;
    request.socket.destroy();
    return;
  }
  response.end('ok');
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const row = (over: Partial<ReportRow>): ReportRow => ({
  file: 'x.bench.ts',
  name: 'figure',
  unit: 'ms',
  load: 1.5,
  ...over,
});

describe('bench harness', () => {
  it('tries a request again after a reset socket and answers what the next attempt got', async () => {
    resets = 1;
    requests = 0;
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      const text = await withRetries('upload', async () =>
        (await fetch(url, { method: 'POST', body: 'x'.repeat(1000) })).text(),
      );
      expect(text).toBe('ok');
    } finally {
      console.log = log;
    }
    expect(requests).toBe(2);
    expect(lines.join('\n')).toMatch(/upload: .*trying again \(2 of 3\)/);
  });

  it('does not retry an error that is not a network error', async () => {
    let runs = 0;
    await expect(
      withRetries('call', async () => {
        runs++;
        throw new Error('answered 400');
      }),
    ).rejects.toThrow('answered 400');
    expect(runs).toBe(1);
  });

  it('recognises a reset socket under fetch', async () => {
    resets = 1;
    const error = await fetch(url).catch((e: unknown) => e);
    expect(isTransient(error)).toBe(true);
    expect(isTransient(new Error('plain'))).toBe(false);
  });

  it('runs a bench again after a reset, reports one that keeps failing, and goes on with the next', async () => {
    let flaky = 0;
    const said: string[] = [];
    const rows = await runBenches(
      [
        {
          file: 'flaky.bench.ts',
          run: async () => {
            flaky++;
            if (flaky === 1) {
              resets = 1;
              await fetch(url);
            }
            return [{ name: 'flaky figure', value: 10, unit: 'ms', goal: { max: 20 } }];
          },
        },
        {
          file: 'broken.bench.ts',
          run: () => Promise.reject(new Error('the plan did not come out intact')),
        },
        {
          file: 'last.bench.ts',
          run: async () => [{ name: 'last figure', value: 4, unit: 'x', floor: 2, goal: { max: 1.5 } }],
        },
      ],
      (line) => said.push(line),
    );
    expect(flaky).toBe(2);
    expect(rows.map((r) => [r.name, judge(r).verdict])).toEqual([
      ['flaky figure', 'ok'],
      ['broken.bench.ts', 'FAILED'],
      ['last figure', 'MISSED'],
    ]);
    expect(rows.every((r) => Number.isFinite(r.load))).toBe(true);
    expect(said.join('\n')).toMatch(/flaky\.bench\.ts failed: .*running it again/);
  });

  it('prints every figure with its floor, ratio, goal, result and load', () => {
    const table = formatTable([
      row({ name: 'API reads', unit: 'req/s', value: 80, floor: 100, goal: { min: 0.8 } }),
      row({ name: 'Devices on screen', value: 300, goal: { max: 400 } }),
      row({ name: 'Wall time', value: 12.345 }),
      row({ name: 'Points lost', unit: 'points', value: 0, goal: { max: 0 } }),
      row({ name: 'upload.bench.ts', unit: '', failed: 'fetch failed (read ECONNRESET)' }),
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(
      /benchmark\s+\|\s+value\s+\|\s+unit\s+\|\s+floor\s+\|\s+ratio\s+\|\s+goal\s+\|\s+result\s+\|\s+load/,
    );
    const cells = (name: string) =>
      (lines.find((l) => l.startsWith(name)) ?? '').split('|').map((c) => c.trim());
    expect(cells('API reads')).toEqual([
      'API reads',
      '80',
      'req/s',
      '100',
      '0.80x floor',
      '>= 0.8x floor',
      'ok',
      '1.50',
    ]);
    expect(cells('Devices on screen')).toEqual([
      'Devices on screen',
      '300',
      'ms',
      'absolute',
      '0.75x goal',
      '<= 400 ms',
      'ok',
      '1.50',
    ]);
    expect(cells('Wall time')).toEqual([
      'Wall time',
      '12.3',
      'ms',
      'absolute',
      '',
      'none (reference)',
      'reference',
      '1.50',
    ]);
    expect(cells('Points lost')).toEqual([
      'Points lost',
      '0',
      'points',
      'absolute',
      'n/a (goal 0)',
      '<= 0 points',
      'ok',
      '1.50',
    ]);
    expect(cells('upload.bench.ts')[6]).toBe('FAILED');
    expect(table).toContain('FAILED upload.bench.ts: fetch failed (read ECONNRESET)');
  });
});
