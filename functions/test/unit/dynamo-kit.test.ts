import { describe, expect, it } from 'vitest';
import { type BackOff, UnprocessedItemsError, untilProcessed } from '../../src/stores/dynamo-kit';

/** A back-off that records the waits it is asked for instead of waiting. */
function recorded(random = 1): BackOff & { waits: number[] } {
  const waits: number[] = [];
  return {
    attempts: 8,
    baseMs: 50,
    capMs: 1000,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => random,
    waits,
  };
}

const giveUp = (left: number, attempts: number) =>
  new UnprocessedItemsError('BatchGetItem', 'platform', left, attempts);

describe('untilProcessed (batch retries)', () => {
  it('sends only what is left, waiting longer each time, until nothing is left', async () => {
    const backOff = recorded();
    const sent: string[][] = [];
    const left = [['c', 'd'], ['d'], []];
    await untilProcessed(
      ['a', 'b', 'c', 'd'],
      async (pending) => {
        sent.push([...pending]);
        return left.shift() ?? [];
      },
      giveUp,
      backOff,
    );
    expect(sent).toEqual([['a', 'b', 'c', 'd'], ['c', 'd'], ['d']]);
    expect(backOff.waits).toEqual([50, 100]);
  });

  it('draws each wait below its ceiling (full jitter) and caps the ceiling', async () => {
    const backOff = recorded(0.5);
    await expect(untilProcessed(['a'], async (pending) => pending, giveUp, backOff)).rejects.toThrow();
    // Ceilings 50, 100, ..., 1000 (capped), each halved by the draw.
    expect(backOff.waits).toEqual([25, 50, 100, 200, 400, 500, 500]);
  });

  it('gives up after the last attempt with an error naming the operation, table and what is left', async () => {
    let calls = 0;
    const failure = untilProcessed(
      ['a', 'b'],
      async (pending) => {
        calls++;
        return pending.slice(0, 1);
      },
      giveUp,
      recorded(),
    );
    await expect(failure).rejects.toBeInstanceOf(UnprocessedItemsError);
    await expect(failure).rejects.toThrow(
      'BatchGetItem on platform left 1 items unprocessed after 8 attempts',
    );
    expect(calls).toBe(8);
  });

  it('sends nothing for nothing', async () => {
    let calls = 0;
    await untilProcessed(
      [],
      async () => {
        calls++;
        return [];
      },
      giveUp,
      recorded(),
    );
    expect(calls).toBe(0);
  });
});
