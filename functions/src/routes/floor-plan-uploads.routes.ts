import { apiCalls } from '@argentum/contracts/api';
import { FLOOR_PLAN_MAX_BYTES, FLOOR_PLAN_UPLOAD_SECONDS } from '@argentum/contracts';
import { commitFloorPlan, createFloorPlanUpload, type FloorPlanPorts } from '../domain/files/floor-plans';
import { type RoutePorts, routesFor } from '../http/types';

/**
 * Floor plan uploads, in a Lambda of their own (lambda/api-floorplans.ts): committing a plan sanitizes
 * it (2 GB for a 10 MB plan), which the floors Lambda, read on every floor view, need not hold.
 * The plan itself is read with /api/dashboard/floorPlanFromS3 (floors.routes.ts).
 */
const domain = 'floorplans';
/** What the plan upload handlers need; lambda/api-floorplans.ts wires them. */
export type FloorPlanUploadRoutePorts = RoutePorts & FloorPlanPorts;
const route = routesFor<FloorPlanUploadRoutePorts>();

export const floorPlanUploadRoutes = [
  route({
    call: apiCalls.createFloorPlanUpload,
    domain,
    access: { minRole: 2 },
    summary:
      "Step 1 of a floor plan upload, for admins of the floor's organization: a presigned S3 POST for " +
      `one SVG file, \`contentType\` image/svg+xml and \`size\` 1 to ${FLOOR_PLAN_MAX_BYTES} bytes ` +
      "(400 'Please upload an SVG file.' or 'The floor plan must be under 10 MB.'). Answers " +
      '`{ url, fields, key, expiresIn }`: post a multipart form to `url` with every field of `fields` and ' +
      `the file last, within \`expiresIn\` (${FLOOR_PLAN_UPLOAD_SECONDS}) seconds; S3 enforces the key, ` +
      'the size range and the Content-Type. Then commit with /api/dashboard/updateFloorPlanS3.',
    handler: async ({ user, body: { orgID, floorID, contentType, size }, ports }) => ({
      body: await createFloorPlanUpload(ports, user, { orgId: orgID, floorId: floorID, contentType, size }),
    }),
  }),
  route({
    call: apiCalls.updateFloorPlanS3,
    domain,
    access: { minRole: 2 },
    summary:
      'Step 2 of a floor plan upload: `floorplan` is the `key` that /api/dashboard/createFloorPlanUpload ' +
      'answered for this floor. The SVG is sanitized (no script, event handlers, foreignObject, ' +
      'references outside the document or entity expansion) and only the clean plan is stored. ' +
      "Answers `{ message: 'Floor plan uploaded successfully.', data, width, height, updatedAt }` (as " +
      "floorPlanFromS3). 400 'Please upload an SVG file.' (not SVG text), 'This file is not a readable " +
      "SVG floor plan.' (not well-formed, no <svg> root, an entity declaration or DTD subset, no size), " +
      "'The floor plan must be under 10 MB.'; a refused upload is removed and the previous plan stays. " +
      '404 for a key that is not an upload of this floor (expired, used, another floor).',
    handler: async ({ user, body: { orgID, floorID, floorplan }, ports }) => ({
      body: await commitFloorPlan(ports, user, { orgId: orgID, floorId: floorID, key: floorplan }),
    }),
  }),
];
