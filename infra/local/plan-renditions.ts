import type { EventEmitter } from 'node:events';
import type { S3Event } from 'aws-lambda';
import { FLOOR_PLAN_PREFIX, PLAN_RENDITION_SOURCE_SUFFIX } from '@argentum/functions/domain/files/keys';
import { asyncInvocations, planRenditions } from '../src/definitions';
import { withinTimeout } from './lambda-invoke';
import { asFunction } from './function-grants';

/**
 * The twin of the files bucket's event notification to the plan renditions function (CDK:
 * stateless-stack.ts): every object created under the plan prefix with the `.svg` suffix is handed to
 * the same handler as an S3 event, one at a time (the renditions are CPU work; this machine serves the
 * requests too). As Lambda does, an invocation ends at the function's timeout, and a failed or
 * timed-out one is tried again twice; then the event is given up, loudly (on AWS: the failure
 * destination and its alarm). One stuck drawing never holds up the ones after it. Unlike Lambda, the
 * twin cannot stop a timed-out drawing's work in this process: its late writes meet the same checks
 * of the plan's version as any other (domain/files/plan-renditions.ts).
 */
const TIMEOUT_MS = planRenditions.timeoutSeconds * 1000;

export interface PlanRenditionTwin {
  /** Resolves once every event handed so far has been handled. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface PlanRenditionTwinOptions {
  /** The function (by default the plan renditions handler, imported now that the environment is set). */
  handler?: (event: S3Event) => Promise<void>;
  timeoutMs?: number;
}

export async function startPlanRenditions(
  s3rver: EventEmitter,
  bucket: string,
  options: PlanRenditionTwinOptions = {},
): Promise<PlanRenditionTwin> {
  const handler = options.handler ?? (await import('@argentum/functions/lambda/plan-renditions')).handler;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  const onEvent = (event: S3Event) => {
    const records = event.Records.filter(
      (record) =>
        record.eventName.startsWith('ObjectCreated:') &&
        record.s3.bucket.name === bucket &&
        record.s3.object.key.startsWith(FLOOR_PLAN_PREFIX) &&
        record.s3.object.key.endsWith(PLAN_RENDITION_SOURCE_SUFFIX),
    );
    if (records.length === 0) return;
    queue = queue.then(async () => {
      const attempts = 1 + asyncInvocations.retryAttempts;
      for (let attempt = 1; attempt <= attempts && !stopped; attempt++) {
        try {
          await withinTimeout(
            asFunction('plan-renditions', () => handler({ Records: records })),
            timeoutMs,
          );
          return;
        } catch (error) {
          if (attempt === attempts)
            console.error(
              'plan renditions: event given up after',
              attempts,
              'attempts',
              records.map((record) => record.s3.object.key),
              error,
            );
        }
      }
    });
  };
  s3rver.on('event', onEvent);
  return {
    idle: () => queue,
    async stop() {
      stopped = true;
      s3rver.off('event', onEvent);
      await queue;
    },
  };
}
