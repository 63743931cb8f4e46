import { EventEmitter } from 'node:events';
import type { S3Event } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { startPlanRenditions } from '../../local/plan-renditions';

/**
 * The twin of the bucket's notification invokes as Lambda does: one invocation ends at the function's
 * timeout and is tried twice more, then given up; a drawing that never ends holds up nothing after it.
 */
const BUCKET = 'files';
const created = (key: string) =>
  ({
    Records: [{ eventName: 'ObjectCreated:Put', s3: { bucket: { name: BUCKET }, object: { key, size: 1 } } }],
  }) as unknown as S3Event;
const keyOf = (event: S3Event) => event.Records[0]?.s3.object.key ?? '';

describe('the plan renditions twin', () => {
  it('ends an invocation at the timeout, tries it twice more, and goes on with the next plan', async () => {
    const bucketEvents = new EventEmitter();
    const calls: string[] = [];
    const twin = await startPlanRenditions(bucketEvents, BUCKET, {
      timeoutMs: 50,
      handler: (event) => {
        calls.push(keyOf(event));
        // The first plan's drawing never ends; the second's does.
        return keyOf(event).endsWith('stuck.svg') ? new Promise<void>(() => undefined) : Promise.resolve();
      },
    });
    bucketEvents.emit('event', created('floorplans/org/stuck.svg'));
    bucketEvents.emit('event', created('floorplans/org/next.svg'));
    // Not a plan: never invoked.
    bucketEvents.emit('event', created('floorplans/org/stuck.800.webp'));
    await twin.idle();
    expect(calls).toEqual([
      'floorplans/org/stuck.svg',
      'floorplans/org/stuck.svg',
      'floorplans/org/stuck.svg',
      'floorplans/org/next.svg',
    ]);
    await twin.stop();
  });

  it('retries a failed invocation, and stops trying once it succeeds', async () => {
    const bucketEvents = new EventEmitter();
    let calls = 0;
    const twin = await startPlanRenditions(bucketEvents, BUCKET, {
      handler: () => (++calls < 2 ? Promise.reject(new Error('throttled')) : Promise.resolve()),
    });
    bucketEvents.emit('event', created('floorplans/org/plan.svg'));
    await twin.idle();
    expect(calls).toBe(2);
    await twin.stop();
  });
});
