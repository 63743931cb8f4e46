/**
 * Object keys in the files bucket: one layout for the adapters, the local stack and CDK (which puts
 * the lifecycle rule on the staging prefix and scopes each Lambda's access by prefix).
 */

/** Browsers upload here first. Nothing under it is ever served, and S3 expires it after a day. */
export const STAGING_PREFIX = 'uploads/';
/** Logos: one object per organization, written only after its content was checked. */
export const LOGO_PREFIX = 'logos/';
/** Staged logo uploads, one folder per organization. */
export const LOGO_STAGING_PREFIX = `${STAGING_PREFIX}logos/`;
/** Floor plans: one sanitized SVG per floor, written only after sanitizing. */
export const FLOOR_PLAN_PREFIX = 'floorplans/';
/** The suffix of plan keys: S3 notifies the renditions function of objects with it (renditions have another). */
export const PLAN_RENDITION_SOURCE_SUFFIX = '.svg';
/** Staged floor plan uploads, one folder per floor. */
export const FLOOR_PLAN_STAGING_PREFIX = `${STAGING_PREFIX}floorplans/`;

export const logoKey = (orgId: string) => `${LOGO_PREFIX}${orgId}`;
export const logoStagingFolder = (orgId: string) => `${LOGO_STAGING_PREFIX}${orgId}/`;
export const floorPlanKey = (orgId: string, floorId: string) =>
  `${FLOOR_PLAN_PREFIX}${orgId}/${floorId}${PLAN_RENDITION_SOURCE_SUFFIX}`;
export const floorPlanStagingFolder = (orgId: string, floorId: string) =>
  `${FLOOR_PLAN_STAGING_PREFIX}${orgId}/${floorId}/`;

/**
 * The widths (pixels) of a plan's raster renditions: the plan area is at most 900 CSS pixels wide, so
 * 1600 covers it on a 2x screen and 3200 a 2x zoom or a 4x screen; beyond that the SVG is drawn.
 */
export const FLOOR_PLAN_RENDITION_WIDTHS = [800, 1600, 3200] as const;
/** The suffix of rendition keys (no event; the renditions function may delete only these). */
export const FLOOR_PLAN_RENDITION_SUFFIX = '.webp';
/** A rendition of a floor's plan, beside it under the plan prefix (served the same way). */
export const floorPlanRenditionKey = (orgId: string, floorId: string, width: number) =>
  `${FLOOR_PLAN_PREFIX}${orgId}/${floorId}/${width}${FLOOR_PLAN_RENDITION_SUFFIX}`;
/**
 * What a floor's plan leaves in storage, in the order it is removed: the plan before its renditions. A
 * drawing that wrote renditions after these deletes finds the plan gone when it checks after writing and
 * removes them itself (plan-renditions.ts). The sweep of a deleted floor and a plan commit that finds its
 * floor deleted after writing (floor-plans.ts) both remove a plan so.
 */
export const floorPlanRemovalKeys = (orgId: string, floorId: string): string[] => [
  floorPlanKey(orgId, floorId),
  ...FLOOR_PLAN_RENDITION_WIDTHS.map((width) => floorPlanRenditionKey(orgId, floorId, width)),
];
/** The floor a plan key names (floorplans/<org>/<floor>.svg); undefined for any other key. */
export function floorOfPlanKey(key: string): { orgId: string; floorId: string } | undefined {
  const match = /^([^/]+)\/([^/]+)\.svg$/.exec(
    key.startsWith(FLOOR_PLAN_PREFIX) ? key.slice(FLOOR_PLAN_PREFIX.length) : '',
  );
  return match?.[1] && match[2] ? { orgId: match[1], floorId: match[2] } : undefined;
}
