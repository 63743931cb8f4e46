import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emfMetrics, flushMetrics, flushingMetrics } from '../../src/adapters/emf-metrics';

/** What one embedded-metric-format line must hold for CloudWatch to take its metrics. */
interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [member: string]: unknown;
}

/** The lines written to stdout while `work` runs, parsed. */
async function linesOf(work: () => unknown): Promise<EmfLine[]> {
  const lines: EmfLine[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as EmfLine);
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

/** A metric's value as CloudWatch sums it (EMF allows one value or a list of values). */
const sum = (value: unknown) =>
  Array.isArray(value) ? value.reduce((a: number, b: number) => a + b, 0) : value;

// The platform tests' setup turns metrics off for the whole run (POWERTOOLS_METRICS_DISABLED): these
// tests are about what the adapter writes, so they turn them on.
beforeEach(() => vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false'));
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the EMF metrics adapter', () => {
  it('writes one valid embedded-metric line per namespace when the invocation ends', async () => {
    const commands = emfMetrics('Argentum/Test');
    const handler = flushingMetrics(async () => {
      commands.count('Confirmed', 1);
      commands.count('Confirmed', 1);
      commands.count('Failed', 3);
      return 'done';
    });
    const lines = await linesOf(async () => expect(await handler()).toBe('done'));
    expect(lines).toHaveLength(1);
    const line = lines[0] as EmfLine;
    const directive = line._aws.CloudWatchMetrics[0];
    expect(Number.isInteger(line._aws.Timestamp)).toBe(true);
    expect(directive).toMatchObject({ Namespace: 'Argentum/Test', Dimensions: [['service']] });
    expect(directive?.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'Confirmed', Unit: 'Count' },
        { Name: 'Failed', Unit: 'Count' },
      ]),
    );
    // Every dimension and metric the directive names is a member of the line.
    expect(line.service).toBe('argentum');
    expect(sum(line.Confirmed)).toBe(2);
    expect(sum(line.Failed)).toBe(3);
    // Sent once: the next invocation starts from nothing and writes nothing when it counted nothing.
    expect(await linesOf(() => flushMetrics())).toEqual([]);
  });

  it('writes a count with dimensions as a line of its own, at once', async () => {
    const lines = await linesOf(() => emfMetrics('Argentum/Test').count('Raised', 1, { kind: 'comfort' }));
    expect(lines).toHaveLength(1);
    expect(lines[0]?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'kind']]);
    expect(lines[0]).toMatchObject({ kind: 'comfort', service: 'argentum', Raised: 1 });
  });
});
