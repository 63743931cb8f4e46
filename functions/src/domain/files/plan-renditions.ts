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
 *
 * No rendition outlives the plan version it was drawn from. Drawing takes seconds, and meanwhile the
 * plan may be removed (the sweep of a deleted floor: the plan first, then its renditions) or replaced
 * (a commit). S3 is strongly consistent (a HEAD sees every write before it), so one order decides:
 * - the drawing writes, then HEADs the plan. Seen unchanged: every write came before the plan was
 *   removed or replaced, so before the sweep's deletes, or before the next version's drawing starts,
 *   which removes the renditions of any other version first. Seen gone or changed: the drawing removes
 *   what it wrote itself (those still of its version; a key already rewritten is left alone).
 * - a drawing that starts after the plan changed draws the plan stored then (or finds none).
 * - a drawing removes the renditions of other versions before it draws: the widths a newer plan does not
 *   get (too tall for WebP, or not drawable at all) leave nothing of the older one behind.
 * - a drawing whose late writes replaced a newer version's renditions withdraws them and then draws
 *   the plan stored now, as that plan's own drawing did.
 * What may still be lost in the rarest orders is a newer version's rendition (removed an instant after
 * a HEAD showed it older): that plan is shown as SVG, as it is until its renditions exist. What is left
 * behind takes a drawing that fails on all of Lambda's tries: after writing while the plan is removed,
 * or a replacing plan's before it removed the older renditions (ignored by readers; swept with the floor).
 */

export interface PlanRenditionPorts extends FilePorts {
  rasterizer: PlanRasterizer;
}

export type RenditionOutcome =
  | { rendered: number[]; removedStale: number[] }
  | { skipped: 'not-a-plan' | 'no-plan' }
  | { skipped: 'replaced'; removedStale: number[] }
  /**
   * Written, then the plan was found removed or replaced: what it wrote is removed again, and a
   * replacing plan is drawn (its own renditions may be among those overwritten).
   */
  | { withdrawn: number[]; redrawn?: RenditionOutcome };

/**
 * Draws the renditions of the plan stored at `key` (an object of the files bucket that was just
 * written). Another key is ignored. When the plan is replaced while it is drawn, nothing more is
 * written: the newer plan's own event draws it. When it is removed or replaced while the renditions are
 * written, they are removed again, and a replacing plan is drawn (at most `redraws` times more).
 */
export async function renderFloorPlan(
  deps: PlanRenditionPorts,
  key: string,
  redraws = 1,
): Promise<RenditionOutcome> {
  const floor = floorOfPlanKey(key);
  if (!floor) return { skipped: 'not-a-plan' };
  const versionNow = async () => {
    const plan = await deps.files.describe(key);
    return plan && planVersion(plan);
  };
  const renditionKey = (width: number) => floorPlanRenditionKey(floor.orgId, floor.floorId, width);
  /** Removes the renditions at `widths` whose version `remove` picks; the widths removed. */
  const removeRenditions = async (widths: readonly number[], remove: (drawnFrom?: string) => boolean) => {
    const removed: number[] = [];
    for (const width of widths) {
      const rendition = await deps.files.describe(renditionKey(width));
      if (!rendition || !remove(rendition.metadata?.[PLAN_VERSION_META])) continue;
      await deps.files.delete(renditionKey(width));
      removed.push(width);
    }
    return removed;
  };

  const version = await versionNow();
  const bytes = version && (await deps.files.read(key, { maxBytes: FLOOR_PLAN_MAX_BYTES }));
  if (!version || !bytes || bytes.length === 0) return { skipped: 'no-plan' };
  const removedStale = await removeRenditions(
    FLOOR_PLAN_RENDITION_WIDTHS,
    (drawnFrom) => drawnFrom !== version,
  );
  const images = await deps.rasterizer.render(bytes, FLOOR_PLAN_RENDITION_WIDTHS);
  if ((await versionNow()) !== version) return { skipped: 'replaced', removedStale };
  for (const image of images) {
    await deps.files.write(
      renditionKey(image.width),
      image.bytes,
      FLOOR_PLAN_RENDITION_TYPE,
      { [PLAN_VERSION_META]: version },
      { contentDisposition: FLOOR_PLAN_RENDITION_DISPOSITION, cacheControl: FLOOR_PLAN_CACHE_CONTROL },
    );
  }
  const rendered = images.map((image) => image.width);
  const after = await versionNow();
  if (after !== version) {
    const withdrawn = await removeRenditions(rendered, (drawnFrom) => drawnFrom === version);
    // Replaced: these late writes may have replaced the newer plan's renditions, drawn meanwhile.
    if (after === undefined || withdrawn.length === 0 || redraws <= 0) return { withdrawn };
    return { withdrawn, redrawn: await renderFloorPlan(deps, key, redraws - 1) };
  }
  return { rendered, removedStale };
}
