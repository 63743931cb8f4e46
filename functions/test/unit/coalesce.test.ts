import { notificationMessageSchema } from '@argentum/contracts/messaging';
import type { NotificationPush } from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import { notificationMessages } from '../../src/adapters/notification-publisher';
import { coalescer, type CoalescerClock } from '../../src/lib/coalesce';

/** A clock whose sleeps pass at once, moving its time on: the spacing is read off the sends' times. */
function virtualClock(): CoalescerClock & { advance(ms: number): void } {
  let time = 1_000_000;
  return {
    now: () => time,
    sleep: async (ms) => void (time += ms),
    advance: (ms) => void (time += ms),
  };
}

const SPACING = 100;

/** A coalescer whose sends are recorded with their time and held until the test lets them finish. */
function recorded(clock = virtualClock()) {
  const sends: { key: string; items: number[]; at: number; finish(error?: Error): void }[] = [];
  const add = coalescer<number>(
    (key, items) =>
      new Promise<void>((resolve, reject) =>
        sends.push({ key, items, at: clock.now(), finish: (error) => (error ? reject(error) : resolve()) }),
      ),
    SPACING,
    clock,
  );
  return { add, sends, clock };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await turn();
};

describe('coalescer', () => {
  it('sends an item alone at once after a quiet spell, with what else came in the same turn', async () => {
    const { add, sends } = recorded();
    const first = [add('t', 1), add('t', 2)];
    await turns();
    expect(sends.map((s) => s.items)).toEqual([[1, 2]]);
    sends[0]?.finish();
    await Promise.all(first);
  });

  it('holds what comes during a send, then sends it together, in order, a spacing after the last send', async () => {
    const { add, sends, clock } = recorded();
    const first = add('t', 1);
    await turns();
    const later = [add('t', 2), add('t', 3), add('t', 4)];
    await turns();
    // Nothing more leaves while the first send is under way.
    expect(sends).toHaveLength(1);
    clock.advance(30);
    sends[0]?.finish();
    await first;
    await turns();
    expect(sends.map((s) => s.items)).toEqual([[1], [2, 3, 4]]);
    expect((sends[1]?.at ?? 0) - (sends[0]?.at ?? 0)).toBe(SPACING);
    let settled = false;
    void Promise.all(later).then(() => (settled = true));
    await turns();
    expect(settled).toBe(false);
    sends[1]?.finish();
    await Promise.all(later);
  });

  it('keeps keys apart: one key waiting holds no other', async () => {
    const { add, sends } = recorded();
    const a = add('a', 1);
    const b = add('b', 2);
    await turns();
    expect(sends.map((s) => [s.key, s.items])).toEqual([
      ['a', [1]],
      ['b', [2]],
    ]);
    for (const send of sends) send.finish();
    await Promise.all([a, b]);
  });

  it('rejects exactly the items of a failed send; the items after it are still sent', async () => {
    const { add, sends } = recorded();
    const failed = [add('t', 1), add('t', 2)];
    await turns();
    const next = add('t', 3);
    sends[0]?.finish(new Error('throttled'));
    for (const item of failed) await expect(item).rejects.toThrow('throttled');
    await turns();
    expect(sends.map((s) => s.items)).toEqual([[1, 2], [3]]);
    sends[1]?.finish();
    await next;
  });

  it('sends at most once a spacing and every item once, in order, however the items come', async () => {
    const { add, sends } = recorded();
    const all: Promise<void>[] = [];
    let finished = 0;
    const finishAll = () => {
      for (; finished < sends.length; finished++) sends[finished]?.finish();
    };
    for (let i = 0; i < 50; i++) {
      all.push(add('t', i));
      await turn();
      finishAll();
      if (i % 7 === 0) await turns(2);
    }
    while (finished < sends.length || sends.flatMap((s) => s.items).length < 50) {
      await turns();
      finishAll();
    }
    await Promise.all(all);
    expect(sends.flatMap((s) => s.items)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (let i = 1; i < sends.length; i++)
      expect((sends[i]?.at ?? 0) - (sends[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(SPACING);
  });
});

describe('notification messages', () => {
  const raised = (i: number): NotificationPush => ({
    kind: 'notification',
    notification: {
      _id: `n${i}`,
      type: 1,
      message: `<b>Sensor ${i}</b> Device Offline ${'x'.repeat(200)}`,
      createdAt: '2026-11-28T10:00:00.000Z',
      properties: { orgID: 'org-a', devID: `DEV${i}` },
    },
  });

  it('sends one push alone, as a page from before batches reads it, and a burst together under 120 KB', () => {
    expect(notificationMessages([raised(1)])).toEqual([raised(1)]);
    expect(notificationMessages([raised(1), raised(2)])).toEqual([
      { kind: 'notifications', pushes: [raised(1), raised(2)] },
    ]);
    const burst = Array.from({ length: 1000 }, (_, i) => raised(i));
    const messages = notificationMessages(burst);
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.flatMap((m) => (m.kind === 'notifications' ? m.pushes : [m]))).toEqual(burst);
    for (const message of messages) {
      expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThanOrEqual(120 * 1024);
      expect(notificationMessageSchema.safeParse(message).success).toBe(true);
    }
  });
});
