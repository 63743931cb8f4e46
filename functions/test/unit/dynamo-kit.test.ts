import { describe, expect, it } from 'vitest';
import type { BackOff } from '../../src/lib/backoff';
import { isThroughputError, UnprocessedItemsError, untilProcessed } from '../../src/stores/dynamo-kit';

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

const giveUp = (left: readonly unknown[], attempts: number, cause?: unknown) =>
  new UnprocessedItemsError('BatchGetItem', 'platform', left, attempts, cause);

/** An error as the SDK throws DynamoDB's answer, by its name. */
const named = (name: string) => Object.assign(new Error(name), { name });

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
    await expect(failure).rejects.toMatchObject({ unprocessed: ['a'] });
  });

  it('gives up at once when a request is throttled as a whole, naming what was not yet processed', async () => {
    const backOff = recorded();
    let calls = 0;
    const failure = untilProcessed(
      ['a', 'b', 'c'],
      async (pending) => {
        calls++;
        if (calls === 2) throw named('ProvisionedThroughputExceededException');
        return pending.slice(1);
      },
      giveUp,
      backOff,
    );
    await expect(failure).rejects.toMatchObject({ unprocessed: ['b', 'c'], attempts: 2 });
    await expect(failure).rejects.toThrow(/\(ProvisionedThroughputExceededException\)/);
    expect(calls).toBe(2);
  });

  it('lets any other error through as it is', async () => {
    const refused = named('ValidationException');
    await expect(untilProcessed(['a'], () => Promise.reject(refused), giveUp, recorded())).rejects.toBe(
      refused,
    );
  });

  it('tells throughput errors from errors about what a request carried', () => {
    for (const name of [
      'ProvisionedThroughputExceededException',
      'ThrottlingException',
      'RequestLimitExceeded',
    ])
      expect(isThroughputError(named(name)), name).toBe(true);
    expect(isThroughputError(giveUp(['a'], 8))).toBe(true);
    for (const name of [
      'ValidationException',
      'ConditionalCheckFailedException',
      'ResourceNotFoundException',
    ])
      expect(isThroughputError(named(name)), name).toBe(false);
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
