import * as z from 'zod';

/**
 * Request schemas of API calls, shared by the route table (functions/src/routes), which validates
 * with them, and the front end, which types its request bodies from them (`import type` only, so no
 * validation code reaches the browser bundle). Exported on its own path for that reason.
 */

/** Identifiers of organizations, buildings, floors, users and notifications. */
export const id = z.string().trim().min(1).max(64);
/** Every request body is an object, and unknown fields are refused. */
export const body = z.strictObject;

// Empty names pass the schema on purpose: the use case answers them with the documented message.
const nodeName = z.string().max(100);
/** The version of the node the client saw; a write to a node changed since then is refused (409). */
const version = z.number().int().min(0).optional();

export const treeRequests = {
  // userData is what older clients send; the server always answers for the signed-in user.
  getUsersOrganisations: body({ userData: z.unknown().optional() }),
  createOrUpdateOrgBuild: body({
    orgName: nodeName.optional(),
    buildName: nodeName.optional(),
    buildID: id.optional(),
    orgID: id.optional(),
    version,
  }),
  createOrUpdateFloor: body({ buildID: id, floorName: nodeName, floorID: id.optional(), version }),
  updateOrgBuildFloorName: body({ id, value: nodeName, version }),
  deleteOrgBuildFloor: body({
    id,
    type: z.enum(['organization', 'building', 'floor']),
    // Sent by older clients; the server works out what lies under the node itself.
    floorID: id.optional(),
    buildCount: z.number().int().min(0).optional(),
    version,
  }),
  updateFloorPlan: body({
    orgID: id,
    floorID: id,
    updateFloorObj: body({
      floorName: z.string().max(100).optional(),
      floorDevTypes: z.array(z.number().int().min(0).max(9)).max(10).optional(),
    }),
    version,
  }),
};

/** The body of a tree call, as the client sends it. */
export type TreeRequest<Call extends keyof typeof treeRequests> = z.input<(typeof treeRequests)[Call]>;
