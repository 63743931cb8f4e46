import { floorPlanKey } from '../../functions/src/domain/files/keys';
import { s3FileStore } from '../../functions/src/stores/files';
import { newPlace, type Place } from '../../functions/test/platform/devices-fixtures';

/** A plain plan, 900 x 600: one room's outline on white. */
export const ROOM_PLAN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600" width="900" height="600">' +
  '<rect width="900" height="600" fill="#ffffff"/>' +
  '<rect x="20" y="20" width="860" height="560" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="3"/>' +
  '</svg>';

/**
 * A new organization named `name` (building Tower, floors Level 1 and Level 2) whose first floor has
 * `plan` stored as its floor plan.
 */
export async function newPlaceWithPlan(name: string, plan = ROOM_PLAN_SVG): Promise<Place> {
  const place = await newPlace(name);
  await s3FileStore.write(
    floorPlanKey(place.orgId, place.floorId),
    new TextEncoder().encode(plan),
    'image/svg+xml',
  );
  return place;
}
