import { describe, expect, it } from 'vitest';
import { svgSanitizer } from '../src/adapters/svg-sanitizer';
import { commitFloorPlan, FLOOR_PLAN_TYPE, PLAN_VERSION_META } from '../src/domain/files/floor-plans';
import {
  FLOOR_PLAN_RENDITION_WIDTHS,
  floorPlanKey,
  floorPlanRenditionKey,
  STAGING_PREFIX,
} from '../src/domain/files/keys';
import type { FileStore } from '../src/domain/files/ports';
import { systemClock } from '../src/domain/ports';
import { errorResponse } from '../src/http/error-mapper';
import { planUrls } from '../src/lambda/wiring/files';
import { s3FileStore } from '../src/stores/files';
import { dynamoTreeStore } from '../src/stores/tree';
import { type AdminFloor, call, callOk, newAdminFloor, users } from './support/api';
import { gate } from './support/gate';

/**
 * A floor plan never outlives its floor. Committing a plan checks the floor, then sanitizes and writes
 * it; the floor's delete, once committed, is swept (its plan, then its renditions, then the floor). The
 * race is played by a commit called here on the real stores, its files store held right after the floor
 * check (when it reads the staged upload), while the floor is deleted through the API and swept.
 */

/** The answer to a commit to a floor that does not exist (floor-plans.test.ts, floorFor). */
const NO_SUCH_FLOOR = { message: 'This floor does not exist (it may have been deleted).' };

const newFloor = () => newAdminFloor('Plan Commit');

const plan = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800">' +
    '<rect x="10" y="10" width="1180" height="780" fill="#cde"/></svg>',
);

/** Stages a plan as the browser does: a form from the API, posted to storage. The key to commit. */
async function stage(floor: AdminFloor): Promise<string> {
  const upload = await callOk<{ url: string; fields: Record<string, string>; key: string }>(
    floor.token,
    '/api/dashboard/createFloorPlanUpload',
    { orgID: floor.orgId, floorID: floor.floorId, contentType: FLOOR_PLAN_TYPE, size: plan.length },
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([plan], { type: FLOOR_PLAN_TYPE }), 'plan.svg');
  const posted = await fetch(upload.url, { method: 'POST', body: form });
  expect(posted.status).toBe(204);
  return upload.key;
}

/** The real files store, but the first read of a staged upload waits until the test releases it. */
function heldAfterFloorCheck() {
  const held = gate();
  const files: FileStore = {
    ...s3FileStore,
    async read(key, ...rest) {
      if (key.startsWith(STAGING_PREFIX)) await held.pass();
      return s3FileStore.read(key, ...rest);
    },
  };
  return { files, reached: held.reached, release: held.release };
}

/** What is stored of the floor's plan: the plan, then its renditions by width (true where stored). */
const storedOf = (floor: Pick<AdminFloor, 'orgId' | 'floorId'>) =>
  Promise.all(
    [
      floorPlanKey(floor.orgId, floor.floorId),
      ...FLOOR_PLAN_RENDITION_WIDTHS.map((width) => floorPlanRenditionKey(floor.orgId, floor.floorId, width)),
    ].map(async (key) => (await s3FileStore.describe(key)) !== undefined),
  );

describe('a floor plan never outlives its floor', () => {
  /** The deletes that take the floor with them: its own, and its building's. */
  const deletes = {
    floor: (floor: AdminFloor) => ({ id: floor.floorId, type: 'floor', version: 0 }),
    building: (floor: AdminFloor) => ({ id: floor.buildId, type: 'building', buildCount: 1, version: 0 }),
  };

  it.for(Object.entries(deletes))(
    'a commit past its floor check while the %s is deleted and swept: no plan stays, the answer is a missing floor’s',
    { timeout: 180_000 },
    async ([, deleteOf]) => {
      const floor = await newFloor();
      const key = await stage(floor);
      const admin = await users.get(floor.userId);
      if (!admin) throw new Error('no admin');

      const held = heldAfterFloorCheck();
      const commit = commitFloorPlan(
        { files: held.files, tree: dynamoTreeStore, clock: systemClock, planUrls, svg: svgSanitizer },
        admin,
        { orgId: floor.orgId, floorId: floor.floorId, key },
      ).then(
        (answer) => ({ status: 200, body: answer as unknown }),
        (error: unknown) => {
          const response = errorResponse(error, 'plan-commit-test');
          return { status: response.statusCode, body: JSON.parse(response.body ?? '') as unknown };
        },
      );
      // The floor was found; the commit goes on to read the staged plan.
      await held.reached;
      const deleted = await call('/api/dashboard/deleteOrgBuildFloor', deleteOf(floor), {
        token: floor.token,
      });
      expect(deleted.status).toBe(200);
      // Swept: the floor's node goes after its plan.
      const ref = { kind: 'floor', id: floor.floorId, orgId: floor.orgId, buildId: floor.buildId } as const;
      await expect
        .poll(() => dynamoTreeStore.getNode(ref), { timeout: 30_000, interval: 100 })
        .toBeUndefined();

      held.release();
      expect(await commit).toEqual({ status: 404, body: NO_SUCH_FLOOR });
      expect(await storedOf(floor)).toEqual([false, false, false, false]);

      // The twin of the bucket's notification draws one stored plan at a time, in order: once a plan
      // stored after the commit is drawn, any drawing of the committed plan is over.
      const other = await newFloor();
      await s3FileStore.write(floorPlanKey(other.orgId, other.floorId), plan, FLOOR_PLAN_TYPE, {
        [PLAN_VERSION_META]: new Date().toISOString(),
      });
      await expect
        .poll(() => storedOf(other), { timeout: 90_000, interval: 200 })
        .toEqual([true, true, true, true]);
      expect(await storedOf(floor)).toEqual([false, false, false, false]);
    },
  );
});
