import { FLOOR_PLAN_MAX_BYTES } from '@argentum/contracts';
import {
  FLOOR_PLAN_CACHE_CONTROL,
  FLOOR_PLAN_RENDITION_DISPOSITION,
  FLOOR_PLAN_RENDITION_TYPE,
  PLAN_VERSION_META,
  planVersion,
} from './floor-plans';
import { FLOOR_PLAN_RENDITION_WIDTHS, floorOfPlanKey, floorPlanRenditionKey } from './keys';
import type { FilePorts, PlanRasterizer } from './ports';

/**
 * Raster renditions of floor plans. A 10 MB SVG takes the browser seconds to parse on its main thread;
 * a WebP of the plan area's size shows at once. Each stored plan is drawn once, after it is stored
 * (an S3 event on AWS, its twin locally), never in the upload's request: at FLOOR_PLAN_RENDITION_WIDTHS,
 * beside the plan, each marked with the version of the plan it was drawn from. A plan's reader gets
 * only the renditions of the plan it reads; until they exist the SVG is shown.
 */

export interface PlanRenditionPorts extends FilePorts {
  rasterizer: PlanRasterizer;
}

export type RenditionOutcome = { rendered: number[] } | { skipped: 'not-a-plan' | 'no-plan' | 'replaced' };

/**
 * Draws the renditions of the plan stored at `key` (an object of the files bucket that was just
 * written). Another key is ignored. When the plan is replaced while it is drawn, nothing more is
 * written: the newer plan's own event draws it.
 */
export async function renderFloorPlan(deps: PlanRenditionPorts, key: string): Promise<RenditionOutcome> {
  const floor = floorOfPlanKey(key);
  if (!floor) return { skipped: 'not-a-plan' };
  const plan = await deps.files.describe(key);
  const version = plan && planVersion(plan);
  const bytes = version && (await deps.files.read(key, { maxBytes: FLOOR_PLAN_MAX_BYTES }));
  if (!version || !bytes || bytes.length === 0) return { skipped: 'no-plan' };
  const images = await deps.rasterizer.render(bytes, FLOOR_PLAN_RENDITION_WIDTHS);
  const current = await deps.files.describe(key);
  if (!current || planVersion(current) !== version) return { skipped: 'replaced' };
  for (const image of images) {
    await deps.files.write(
      floorPlanRenditionKey(floor.orgId, floor.floorId, image.width),
      image.bytes,
      FLOOR_PLAN_RENDITION_TYPE,
      { [PLAN_VERSION_META]: version },
      { contentDisposition: FLOOR_PLAN_RENDITION_DISPOSITION, cacheControl: FLOOR_PLAN_CACHE_CONTROL },
    );
  }
  return { rendered: images.map((image) => image.width) };
}
