import { treeRequests } from '@argentum/events/contracts/requests';
import * as z from 'zod';
import { type TreeEditingPorts, updateFloor } from '../domain/tree/editing';
import { TREE_MESSAGES } from '../domain/tree/messages';
import { body, id, notAvailableYet } from '../http/schemas';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'floors';
/** What the floors' handlers need; lambda/api-floors.ts wires them. */
export type FloorsRoutePorts = RoutePorts & TreeEditingPorts;
const route = routesFor<FloorsRoutePorts>();
/** Floor plans: SVG under 10 MB. */
const FLOOR_PLAN_BODY_BYTES = 10 * 1024 * 1024 + 4096;

export const floorsRoutes = [
  route({
    method: 'POST',
    path: '/api/dashboard/floorPlanFromS3',
    domain,
    access: { minRole: 0 },
    summary: "A floor's SVG plan (404 when the floor has none).",
    request: body({ orgID: id, floorID: id }),
    handler: notAvailableYet('Floor plans'),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/updateFloorPlan',
    domain,
    access: { minRole: 2 },
    summary: "Updates a floor's name or device types (the floor header rename).",
    request: treeRequests.updateFloorPlan,
    handler: async ({ user, body: b, ports }) => {
      const floor = await updateFloor(ports, user, {
        orgId: b.orgID,
        floorId: b.floorID,
        ...b.updateFloorObj,
        version: b.version,
      });
      return {
        body: {
          ...(b.updateFloorObj.floorName !== undefined ? { message: TREE_MESSAGES.floorRenamed } : {}),
          floor,
        },
      };
    },
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/updateFloorPlanS3',
    domain,
    access: { minRole: 2 },
    summary: "Uploads a floor's SVG plan (SVG only, under 10 MB).",
    maxBodyBytes: FLOOR_PLAN_BODY_BYTES,
    request: body({ orgID: id, floorID: id, floorplan: z.string().max(FLOOR_PLAN_BODY_BYTES) }),
    handler: notAvailableYet('Floor plan upload'),
  }),
];
