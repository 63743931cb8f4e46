import { describe, expect, it } from 'vitest';
import { packLines } from '../../src/adapters/firehose-archive';
import { basicIngestTopic, ruleSeenTopic, topics } from '@argentum/contracts/messaging';
import {
  archiveDayPrefix,
  archivePartition,
  readArchivedRaw,
  type TelemetryArchive,
} from '../../src/domain/telemetry/archive';

const day = Date.UTC(2026, 0, 15);

describe('the archive layout', () => {
  it('files a record under its organization and the UTC day of its reading, else of its arrival', () => {
    expect(archivePartition({ orgId: 'o1', time: day + 5, receivedAt: day + 86_400_000 })).toEqual({
      orgId: 'o1',
      day: '2026-01-15',
    });
    expect(archivePartition({ orgId: 'o1', time: 'soon', receivedAt: day - 1 })).toEqual({
      orgId: 'o1',
      day: '2026-01-14',
    });
    // What Firehose cannot partition (its JQ fails) goes to its error prefix: nothing here.
    expect(archivePartition({ time: day, receivedAt: day })).toBeUndefined();
    expect(archivePartition({ orgId: 'o1', time: 1e20, receivedAt: day })).toBeUndefined();
    expect(archiveDayPrefix('o1', '2026-01-15')).toBe('readings/org=o1/day=2026-01-15/');
  });

  it('lets the rules see a Basic Ingest topic without its prefix', () => {
    const topic = topics.sensorData('o1', 'd1');
    expect(ruleSeenTopic(basicIngestTopic('argentum_telemetry', topic))).toBe(topic);
    expect(ruleSeenTopic(topic)).toBe(topic);
  });
});

describe('reading archived readings', () => {
  /** An archive of record lines per day: the port's contract, as the S3 adapter answers it. */
  const archiveOf = (days: Record<string, string[]>): TelemetryArchive => ({
    async *dayLines(_orgId, d) {
      for (const line of days[d] ?? []) yield line;
    },
  });
  const record = (devID: string, time: number, temp: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      devID,
      devType: 5,
      time,
      values: { temp },
      orgId: 'o1',
      topicDevId: devID,
      receivedAt: time,
      ...extra,
    });

  it('keeps the devices asked for, in range, once per time (the later copy), oldest first', async () => {
    const archive = archiveOf({
      '2026-01-15': [
        record('d1', day + 2000, 2),
        record('d1', day + 1000, 1),
        record('d1', day + 1000, 1.5),
        record('d2', day + 1000, 9),
        'not json',
        JSON.stringify({ orgId: 'o1', devID: 'd1', values: 'none' }),
        // A device publishing another's reading: ingest refuses it, so does the archive reader.
        record('d1', day + 3000, 3, { topicDevId: 'd3' }),
      ],
      '2026-01-16': [record('d1', day + 86_400_000 + 10, 4), record('d1', day + 2 * 86_400_000, 5)],
    });
    const found = await readArchivedRaw(archive, 'o1', ['d1'], day, day + 86_400_000 + 10);
    expect(found.get('d1')?.map((p) => [p.time - day, p.values.temp])).toEqual([
      [1000, 1.5],
      [2000, 2],
      [86_400_010, 4],
    ]);
    expect(found.has('d2')).toBe(false);
  });
});

describe('packing archive lines into Firehose records', () => {
  it('puts at most 500 lines and 1,000 KiB in a record, each line whole and newline-ended', () => {
    const lines = Array.from({ length: 1001 }, (_, i) => JSON.stringify({ i }));
    const records = packLines(lines);
    expect(records.map((r) => new TextDecoder().decode(r).split('\n').filter(Boolean).length)).toEqual([
      500, 500, 1,
    ]);
    const big = 'x'.repeat(400 * 1024);
    const byBytes = packLines([big, big, big]);
    expect(byBytes.map((r) => r.length)).toEqual([2 * (big.length + 1), big.length + 1]);
    expect(new TextDecoder().decode(byBytes[1])).toBe(`${big}\n`);
  });
});
