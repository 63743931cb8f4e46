import { apiCalls } from '@argentum/contracts/api';
import {
  FLOOR_PLAN_NOT_FOUND,
  FLOOR_PLAN_URL_SECONDS,
  type FloorPlanReadPorts,
  readFloorPlan,
} from '../domain/files/floor-plans';
import { type TreeEditingPorts, updateFloor } from '../domain/tree/editing';
import { TREE_MESSAGES } from '../domain/tree/texts';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'floors';
/** What the floors' handlers need; lambda/api-floors.ts wires them. */
export type FloorsRoutePorts = RoutePorts & TreeEditingPorts & FloorPlanReadPorts;
const route = routesFor<FloorsRoutePorts>();

export const floorsRoutes = [
  route({
    call: apiCalls.floorPlanFromS3,
    domain,
    access: { minRole: 0 },
    summary:
      "A floor's plan, for any member of the floor's organization: `{ data, width, height, updatedAt }`, " +
      '`data` being a presigned URL of the sanitized SVG, valid for ' +
      `${FLOOR_PLAN_URL_SECONDS} seconds, served as image/svg+xml and as a download (use it as an image ` +
      'source, never inline); `width` and `height` are its size in user units (viewBox, else its ' +
      `width and height), \`updatedAt\` when it was stored. 404 '${FLOOR_PLAN_NOT_FOUND}' when the ` +
      'floor has none; a floor of another organization answers 404 like one that does not exist.',
    handler: async ({ user, body: { orgID, floorID }, ports }) => ({
      body: await readFloorPlan(ports, user, { orgId: orgID, floorId: floorID }),
    }),
  }),
  route({
    call: apiCalls.updateFloorPlan,
    domain,
    access: { minRole: 2 },
    summary: "Updates a floor's name or device types (the floor header rename).",
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
];
