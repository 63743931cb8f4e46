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
/** Staged floor plan uploads, one folder per floor. */
export const FLOOR_PLAN_STAGING_PREFIX = `${STAGING_PREFIX}floorplans/`;

export const logoKey = (orgId: string) => `${LOGO_PREFIX}${orgId}`;
export const logoStagingFolder = (orgId: string) => `${LOGO_STAGING_PREFIX}${orgId}/`;
export const floorPlanKey = (orgId: string, floorId: string) => `${FLOOR_PLAN_PREFIX}${orgId}/${floorId}.svg`;
export const floorPlanStagingFolder = (orgId: string, floorId: string) =>
  `${FLOOR_PLAN_STAGING_PREFIX}${orgId}/${floorId}/`;
