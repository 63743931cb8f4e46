import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_DATA_POINTS } from '@argentum/contracts/messaging';
import {
  type DeadLetter,
  ingestBatch,
  type QueuedReading,
  READING_WINDOW,
  TELEMETRY_MAX_RECEIVES,
} from '../../src/domain/telemetry/ingest';
import type { TelemetryPoint } from '../../src/domain/telemetry/telemetry';

const NOW = Date.UTC(2026, 10, 24, 12);

/** The ingest use case against in-memory ports: registered devices, stored points, dead letters. */
function scene(owners: Record<string, string>, failing: ReadonlySet<string> = new Set()) {
  const stored: TelemetryPoint[] = [];
  const latest = new Map<string, number>();
  const letters: DeadLetter[] = [];
  const ports = {
    telemetry: {
      write: async (points: readonly TelemetryPoint[]) => {
        stored.push(...points.filter((p) => !failing.has(p.devId)));
        return { failedDevices: new Set(points.filter((p) => failing.has(p.devId)).map((p) => p.devId)) };
      },
    },
    devices: {
      ownerOf: async (devId: string) => owners[devId],
      recordLatest: async (devId: string, time: number) => {
        latest.set(devId, Math.max(time, latest.get(devId) ?? 0));
        return undefined;
      },
    },
    deadLetters: { send: async (sent: readonly DeadLetter[]) => void letters.push(...sent) },
  };
  return { ports, stored, latest, letters };
}

let n = 0;
const record = (
  orgId: string,
  devID: string,
  fields: Record<string, unknown>,
  receives = 1,
): QueuedReading => ({
  id: `m${n++}`,
  body: JSON.stringify({
    devID,
    devType: 5,
    values: { temp: 21 },
    ...fields,
    orgId,
    topicDevId: devID,
    receivedAt: NOW,
  }),
  receives,
  sentAt: NOW,
});
const devId = () => `U${randomUUID().slice(0, 8)}`;

describe('ingestBatch (the telemetry use case)', () => {
  it("fails only the poison record: the other organization's and the sibling's readings are stored", async () => {
    const [bad, sibling, foreign] = [devId(), devId(), devId()];
    const { ports, stored, letters } = scene({ [bad]: 'a', [sibling]: 'a', [foreign]: 'b' });
    const batch = [
      record('a', bad, { values: { temp: 2 ** 53 } }),
      record('b', foreign, { time: NOW - 1000 }),
      record('a', bad, { values: { temp: Number.MAX_VALUE } }),
      record('a', sibling, { time: NOW - 2000 }),
    ];
    const { retry, counts } = await ingestBatch(ports, batch, NOW);
    expect(retry).toEqual([]);
    expect(stored.map((p) => p.devId).sort()).toEqual([foreign, sibling].sort());
    expect(letters.map((l) => [l.messageId, l.reason.split(':')[0]])).toEqual([
      [batch[0]?.id, 'not a reading'],
      [batch[2]?.id, 'not a reading'],
    ]);
    expect(counts).toMatchObject({ Stored: 2, Invalid: 2, DeadLettered: 2 });
  });

  it("tells a device's clock by its own newest reading of a batch, never by one the platform published", async () => {
    const [own, vendor] = [devId(), devId()];
    const { ports } = scene({ [own]: 'a', [vendor]: 'a' });
    const offsets = new Map<string, number | undefined>();
    const recordLatest = async (id: string, _time: number, _values: unknown, clockOffset?: number) => {
      offsets.set(id, clockOffset);
      return undefined;
    };
    await ingestBatch(
      { ...ports, devices: { ...ports.devices, recordLatest } },
      [
        record('a', own, { time: NOW + 120_000, clientId: own }),
        record('a', own, { time: NOW + 60_000, clientId: own }),
        // Its newest, a value it confirmed, came through the data plane (clientid() "n/a").
        record('a', own, { time: NOW + 121_000, clientId: 'n/a' }),
        record('a', vendor, { time: NOW - 1_000, clientId: 'n/a' }),
      ],
      NOW,
    );
    expect(offsets.get(own)).toBe(120_000);
    expect(offsets.has(vendor)).toBe(true);
    expect(offsets.get(vendor)).toBeUndefined();
  });

  it('takes readings from 7 days before to 5 minutes after their arrival, and dead-letters the others', async () => {
    const dev = devId();
    const { ports, stored, latest, letters } = scene({ [dev]: 'a' });
    const times = {
      oldest: NOW - READING_WINDOW.behindMs,
      newest: NOW + READING_WINDOW.aheadMs,
      tooOld: NOW - READING_WINDOW.behindMs - 1,
      tooNew: NOW + READING_WINDOW.aheadMs + 1,
      epoch: 1000,
      nextYear: NOW + 365 * 24 * 3_600_000,
    };
    const batch = Object.values(times).map((time) => record('a', dev, { time }));
    await ingestBatch(ports, batch, NOW);
    expect(stored.map((p) => p.time)).toEqual([times.oldest, times.newest]);
    expect(latest.get(dev)).toBe(times.newest);
    expect(letters.map((l) => l.reason)).toEqual(
      [times.tooOld, times.tooNew, times.epoch, times.nextYear].map(
        (time) =>
          `reading time ${new Date(time).toISOString()} is outside the window around its arrival at ` +
          `${new Date(NOW).toISOString()} (at most 7 days before, 5 minutes after)`,
      ),
    );
  });

  it('dead-letters a reading of more data points than a device declares, and stores one of as many', async () => {
    const dev = devId();
    const { ports, stored, letters } = scene({ [dev]: 'a' });
    const values = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, i]));
    const batch = [MAX_DATA_POINTS, MAX_DATA_POINTS + 1].map((n) => record('a', dev, { values: values(n) }));
    await ingestBatch(ports, batch, NOW);
    expect(stored.map((p) => Object.keys(p.values).length)).toEqual([MAX_DATA_POINTS]);
    expect(letters.map((l) => l.reason)).toEqual([
      `not a reading: values: more than ${MAX_DATA_POINTS} data points`,
    ]);
  });

  it('retries only the records of a device whose readings could not be stored', async () => {
    const [down, up] = [devId(), devId()];
    const { ports, stored } = scene({ [down]: 'a', [up]: 'a' }, new Set([down]));
    const batch = [record('a', down, {}), record('a', up, {})];
    const { retry } = await ingestBatch(ports, batch, NOW);
    expect(retry).toEqual([batch[0]?.id]);
    expect(stored.map((p) => p.devId)).toEqual([up]);
  });

  it('retries an unknown device until the last receive, then dead-letters it', async () => {
    const stranger = devId();
    const { ports, letters } = scene({});
    const first = record('a', stranger, {});
    expect((await ingestBatch(ports, [first], NOW)).retry).toEqual([first.id]);
    const last = { ...first, receives: TELEMETRY_MAX_RECEIVES };
    expect((await ingestBatch(ports, [last], NOW + 2000)).retry).toEqual([]);
    expect(letters.map((l) => l.reason)).toEqual([`device ${stranger} is not registered in organization a`]);
  });

  it("keeps a reporting device's owner known from its latest-values write: no owner lookup a reading", async () => {
    const id = devId();
    const { ports, stored } = scene({ [id]: 'a' });
    let lookups = 0;
    const counted = {
      ...ports,
      devices: {
        ownerOf: async (devId: string) => {
          lookups++;
          return ports.devices.ownerOf(devId);
        },
        // The store answers the device as written (stores/devices.ts recordLatest).
        recordLatest: async (devId: string, time: number, values: Record<string, number>) => {
          await ports.devices.recordLatest(devId, time);
          return { orgId: 'a', taken: { time, values, latestAt: {} } };
        },
      },
    };
    // A reading every 50 s for a while: further apart in all than the owner cache keeps an answer.
    for (const at of [0, 50_000, 100_000, 150_000])
      expect((await ingestBatch(counted, [record('a', id, {})], NOW + at)).retry).toEqual([]);
    expect(stored).toHaveLength(4);
    expect(lookups).toBe(1);
  });

  it('archives what it accepted in one request a batch, and has the batch come again when the archive refuses', async () => {
    const id = devId();
    const { ports } = scene({ [id]: 'a' });
    const requests: string[][] = [];
    const archiving = {
      ...ports,
      archive: { put: async (lines: readonly string[]) => void requests.push([...lines]) },
    };
    const good = [record('a', id, { time: NOW - 1000 }), record('a', id, { time: NOW - 500 })];
    const refused = record('a', id, { time: NOW + 3_600_000 });
    expect((await ingestBatch(archiving, [...good, refused], NOW)).retry).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.map((l) => (JSON.parse(l) as { time: number; orgId: string }).time)).toEqual([
      NOW - 1000,
      NOW - 500,
    ]);
    expect(JSON.parse(requests[0]?.[0] ?? '{}')).toMatchObject({
      orgId: 'a',
      topicDevId: id,
      receivedAt: NOW,
    });

    const failing = {
      ...ports,
      archive: { put: () => Promise.reject(new Error('ServiceUnavailableException')) },
    };
    expect((await ingestBatch(failing, good, NOW)).retry).toEqual(good.map((r) => r.id));
  });
});
