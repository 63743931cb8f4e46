import type { S3Event } from 'aws-lambda';
import { sharpPlanRasterizer } from '../adapters/plan-rasterizer';
import { assertConfigured, config } from '../config';
import { renderFloorPlan } from '../domain/files/plan-renditions';
import { log } from '../http/log';
import { s3FileStore } from '../stores/files';

// A misconfigured function fails its cold start, naming what is missing. It reads and writes only the
// files bucket: the shared wiring (wiring/core.ts, wiring/files.ts) would load DynamoDB and the plan
// URL signer for nothing.
assertConfigured();

/**
 * Draws the raster renditions of a floor plan once it is stored: the files bucket notifies this
 * function of every object created under the plan prefix with the `.svg` suffix (CDK:
 * stateless-stack.ts; locally infra/local/plan-renditions.ts hands it s3rver's events). It runs off
 * the upload's request, so committing a plan answers as soon as the sanitized SVG is stored. A failure
 * is thrown: S3 invokes asynchronously, and Lambda retries twice.
 */
export async function handler(event: S3Event): Promise<void> {
  for (const record of event.Records) {
    if (record.s3.bucket.name !== config.filesBucket || !record.eventName.startsWith('ObjectCreated:'))
      continue;
    // S3 gives keys URL-encoded, spaces as '+'.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const outcome = await renderFloorPlan({ files: s3FileStore, rasterizer: sharpPlanRasterizer }, key);
    log('info', 'floor plan renditions', { key, ...outcome });
  }
}
