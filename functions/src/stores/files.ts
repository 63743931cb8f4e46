/** Object keys in the files bucket. */
export const floorPlanKey = (orgId: string, floorId: string) => `floorplans/${orgId}/${floorId}.svg`;
export const logoKey = (orgId: string) => `logos/${orgId}`;
