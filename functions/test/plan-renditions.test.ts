import { describe, expect, it } from 'vitest';
import { sharpPlanRasterizer } from '../src/adapters/plan-rasterizer';
import { FLOOR_PLAN_TYPE, PLAN_VERSION_META } from '../src/domain/files/floor-plans';
import { FLOOR_PLAN_RENDITION_WIDTHS, floorPlanKey, floorPlanRenditionKey } from '../src/domain/files/keys';
import type { FileStore } from '../src/domain/files/ports';
import { renderFloorPlan } from '../src/domain/files/plan-renditions';
import { s3FileStore } from '../src/stores/files';
import { type AdminFloor, call, callOk, newAdminFloor } from './support/api';
import { gate } from './support/gate';

/**
 * No rendition outlives the plan version it was drawn from, however the drawing interleaves with the
 * floor's delete (the sweep) or a replaced plan. The local stack's twin of the bucket notification draws
 * every stored plan (infra/local/plan-renditions.ts); the races are played by a second drawing of the
 * same plan, called here on the real files store, held just before it writes its renditions (the only
 * point where the plan may vanish unseen: it checks the plan again after drawing).
 */

const newFloor = () => newAdminFloor('Renditions');

const svg = (width: number, height: number) =>
  new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">` +
      `<rect x="10" y="10" width="${width - 20}" height="${height - 20}" fill="#cde"/></svg>`,
  );

/** Stores a plan as a commit does (sanitized SVG, its version as metadata); the twin then draws it. */
async function storePlan(floor: AdminFloor, bytes: Uint8Array, version: string) {
  await s3FileStore.write(floorPlanKey(floor.orgId, floor.floorId), bytes, FLOOR_PLAN_TYPE, {
    [PLAN_VERSION_META]: version,
  });
}

/** The plan version each stored rendition was drawn from, by width; null where there is none. */
const renditionVersions = (floor: AdminFloor) =>
  Promise.all(
    FLOOR_PLAN_RENDITION_WIDTHS.map(async (width) => {
      const rendition = await s3FileStore.describe(floorPlanRenditionKey(floor.orgId, floor.floorId, width));
      return rendition ? (rendition.metadata?.[PLAN_VERSION_META] ?? 'none') : null;
    }),
  );

/** Waits for the twin to have drawn the plan: exactly these rendition versions, by width. */
const drawnAs = (floor: AdminFloor, versions: (string | null)[]) =>
  expect.poll(() => renditionVersions(floor), { timeout: 90_000, interval: 200 }).toEqual(versions);

/** The real files store, but every rendition write waits until the test releases it. */
function heldBeforeWriting() {
  const held = gate();
  const files: FileStore = {
    ...s3FileStore,
    async write(key, ...rest) {
      if (key.endsWith('.webp')) await held.pass();
      return s3FileStore.write(key, ...rest);
    },
  };
  return { files, reached: held.reached, release: held.release };
}

const version = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

describe('plan renditions never outlive their plan', () => {
  it(
    'a floor deleted while its plan is drawn: renditions written after the sweep are removed by the drawing',
    { timeout: 180_000 },
    async () => {
      const floor = await newFloor();
      const v1 = version();
      await storePlan(floor, svg(1200, 800), v1);
      await drawnAs(floor, [v1, v1, v1]);

      const held = heldBeforeWriting();
      const drawing = renderFloorPlan(
        { files: held.files, rasterizer: sharpPlanRasterizer },
        floorPlanKey(floor.orgId, floor.floorId),
      );
      // Drawn, and the plan checked again: it is still there.
      await held.reached;
      const deleted = await call(
        '/api/dashboard/deleteOrgBuildFloor',
        { id: floor.floorId, type: 'floor', version: 0 },
        { token: floor.token },
      );
      expect(deleted.status).toBe(200);
      // The sweep removes the plan, then its renditions.
      await expect
        .poll(
          async () => [
            await s3FileStore.describe(floorPlanKey(floor.orgId, floor.floorId)),
            ...(await renditionVersions(floor)),
          ],
          { timeout: 30_000, interval: 100 },
        )
        .toEqual([undefined, null, null, null]);

      held.release();
      expect(await drawing).toEqual({ withdrawn: [...FLOOR_PLAN_RENDITION_WIDTHS] });
      expect(await renditionVersions(floor)).toEqual([null, null, null]);
    },
  );

  it(
    'a plan replaced while the old one is drawn: the late renditions of the old version do not stay, the new plan keeps its own',
    { timeout: 180_000 },
    async () => {
      const floor = await newFloor();
      const v1 = version();
      await storePlan(floor, svg(1200, 800), v1);
      await drawnAs(floor, [v1, v1, v1]);

      const held = heldBeforeWriting();
      const drawing = renderFloorPlan(
        { files: held.files, rasterizer: sharpPlanRasterizer },
        floorPlanKey(floor.orgId, floor.floorId),
      );
      await held.reached;
      const v2 = version(1);
      await storePlan(floor, svg(1000, 800), v2);
      await drawnAs(floor, [v2, v2, v2]);

      held.release();
      expect(await drawing).toMatchObject({
        withdrawn: [...FLOOR_PLAN_RENDITION_WIDTHS],
        redrawn: { rendered: [...FLOOR_PLAN_RENDITION_WIDTHS] },
      });
      // The late writes replaced the newer plan's renditions: withdrawn, and the newer plan drawn again.
      expect(await renditionVersions(floor)).toEqual([v2, v2, v2]);
      const plan = await callOk<{ renditions: { width: number }[] }>(
        floor.token,
        '/api/dashboard/floorPlanFromS3',
        {
          orgID: floor.orgId,
          floorID: floor.floorId,
        },
      );
      expect(plan.renditions.map((rendition) => rendition.width)).toEqual([...FLOOR_PLAN_RENDITION_WIDTHS]);
    },
  );

  it(
    'a replacing plan drawn at fewer widths (too tall for WebP at 3200): the old version’s widest rendition is removed',
    { timeout: 180_000 },
    async () => {
      const floor = await newFloor();
      const v1 = version();
      await storePlan(floor, svg(1200, 800), v1);
      await drawnAs(floor, [v1, v1, v1]);
      // 3200 wide it would be 16,640 pixels tall, over WebP's 16,383.
      const v2 = version(1);
      await storePlan(floor, svg(100, 520), v2);
      await drawnAs(floor, [v2, v2, null]);
    },
  );
});
