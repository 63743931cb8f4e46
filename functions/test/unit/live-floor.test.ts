import { type LiveFloorMessage, liveFloorMessageSchema } from '@argentum/contracts/messaging';
import { describe, expect, it } from 'vitest';
import { liveFloorMessages, publishLiveFloors } from '../../src/domain/realtime/live-floor';

const update = (i: number) => ({
  devID: `DEV${String(i).padStart(6, '0')}`,
  latest: { temp: i, hum: 40, co2: 600, voc: 10, pm25: 3 },
  lastSeen: 1_700_000_000_000 + i,
  online: true as const,
});

describe('live floor messages', () => {
  it('keeps a floor in one message under the limit and splits only above it', () => {
    expect(liveFloorMessages('f1', [update(1), update(2)])).toEqual([
      { floorId: 'f1', updates: [update(1), update(2)] },
    ]);
    const many = Array.from({ length: 3000 }, (_, i) => update(i));
    const messages = liveFloorMessages('f1', many);
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.flatMap((m) => m.updates)).toEqual(many);
    for (const message of messages) {
      expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThanOrEqual(120 * 1024);
      expect(liveFloorMessageSchema.safeParse(message).success).toBe(true);
    }
  });

  it("publishes one message per floor with each device's newest values and their times, skipping devices on no floor", async () => {
    const sent: { orgId: string; floorId: string; message: LiveFloorMessage }[] = [];
    const placements: Record<string, { orgId: string; floorId: string | undefined }> = {
      U1A: { orgId: 'o1', floorId: 'f1' },
      U1B: { orgId: 'o1', floorId: 'f1' },
      U2A: { orgId: 'o2', floorId: 'f2' },
      U3X: { orgId: 'o1', floorId: undefined },
    };
    await publishLiveFloors(
      {
        placements: { placementOf: async (devId) => placements[devId] },
        publisher: {
          publish: async (orgId, floorId, message) => void sent.push({ orgId, floorId, message }),
        },
      },
      [
        { devId: 'U1A', time: 5, values: { temp: 1 }, latestAt: { temp: 5 } },
        { devId: 'U1B', time: 6, values: { temp: 2 }, latestAt: { temp: 4 } },
        { devId: 'U2A', time: 7, values: { temp: 3 }, latestAt: { temp: 7 } },
        { devId: 'U3X', time: 8, values: { temp: 4 }, latestAt: { temp: 8 } },
        { devId: 'U9Z', time: 9, values: { temp: 5 }, latestAt: { temp: 9 } },
      ],
    );
    expect(sent.sort((a, b) => a.floorId.localeCompare(b.floorId))).toEqual([
      {
        orgId: 'o1',
        floorId: 'f1',
        message: {
          floorId: 'f1',
          updates: [
            { devID: 'U1A', latest: { temp: 1 }, latestAt: { temp: 5 }, lastSeen: 5 },
            { devID: 'U1B', latest: { temp: 2 }, latestAt: { temp: 4 }, lastSeen: 6 },
          ],
        },
      },
      {
        orgId: 'o2',
        floorId: 'f2',
        message: {
          floorId: 'f2',
          updates: [{ devID: 'U2A', latest: { temp: 3 }, latestAt: { temp: 7 }, lastSeen: 7 }],
        },
      },
    ]);
  });

  it('never fails the batch when publishing fails', async () => {
    const logged: string[] = [];
    await expect(
      publishLiveFloors(
        {
          placements: { placementOf: async () => ({ orgId: 'o1', floorId: 'f9' }) },
          publisher: {
            publish: async () => {
              throw new Error('throttled');
            },
          },
          logger: { log: (_level, message) => void logged.push(message) },
        },
        [{ devId: 'V1', time: 1, values: { temp: 1 }, latestAt: { temp: 1 } }],
      ),
    ).resolves.toBeUndefined();
    expect(logged).toEqual(['live floor: message not published']);
  });
});
