import type { EventEmitter } from 'node:events';
import type { S3Event } from 'aws-lambda';
import { FLOOR_PLAN_PREFIX, PLAN_RENDITION_SOURCE_SUFFIX } from '@argentum/functions/domain/files/keys';

/**
 * The twin of the files bucket's event notification to the plan renditions function (CDK:
 * stateless-stack.ts): every object created under the plan prefix with the `.svg` suffix is handed to
 * the same handler as an S3 event, one at a time (the renditions are CPU work; this machine serves the
 * requests too). A failed drawing is retried twice, as Lambda retries an asynchronous invocation.
 */
const ATTEMPTS = 3;

export interface PlanRenditionTwin {
  /** Resolves once every event handed so far has been handled. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPlanRenditions(s3rver: EventEmitter, bucket: string): Promise<PlanRenditionTwin> {
  // Imported now that the handlers' environment is set.
  const { handler } = await import('@argentum/functions/lambda/plan-renditions');
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
      for (let attempt = 1; attempt <= ATTEMPTS && !stopped; attempt++) {
        try {
          await handler({ Records: records });
          return;
        } catch (error) {
          if (attempt === ATTEMPTS) console.error('plan renditions failed', error);
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
