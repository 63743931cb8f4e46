import * as z from 'zod';
import {
  createBuilding,
  createFloor,
  createOrganization,
  deleteNode,
  renameNode,
  type TreeEditingPorts,
} from '../domain/tree/editing';
import { RENAMED_MESSAGES, TREE_MESSAGES } from '../domain/tree/messages';
import { organizationsOf } from '../domain/tree/organizations';
import { body, id } from '../http/schemas';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'tree';
/** What the tree's handlers need; the tree Lambda (lambda/api-tree.ts) wires them. */
export type TreeRoutePorts = RoutePorts & TreeEditingPorts;
const route = routesFor<TreeRoutePorts>();
// Empty names pass the schema on purpose: the use case answers them with the documented message.
const name = z.string().max(100);
/** The version of the node the client saw; a write to a node changed since then is refused (409). */
const version = z.number().int().min(0).optional();

export const treeRoutes = [
  route({
    method: 'POST',
    path: '/api/dashboard/getUsersOrganisations',
    domain,
    access: { minRole: 0 },
    summary: "The signed-in user's organizations with their buildings and floors.",
    // userData is what older clients send; the server always answers for the signed-in user.
    request: body({ userData: z.unknown().optional() }),
    handler: async ({ user, ports }) => ({ body: { organizations: await organizationsOf(ports, user) } }),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/createOrUpdateOrgBuild',
    domain,
    access: { minRole: 2 },
    summary:
      'Creates an organization (orgName), or a building in an organization (orgID, buildName); ' +
      'renames an organization (orgID, orgName) or a building (buildID, buildName). ' +
      "A new organization is added to its creator's organizations.",
    request: body({
      orgName: name.optional(),
      buildName: name.optional(),
      buildID: id.optional(),
      orgID: id.optional(),
      version,
    }),
    handler: async ({ user, body: b, ports }) => {
      if (b.buildID !== undefined) {
        const building = await renameNode(ports, user, {
          id: b.buildID,
          value: b.buildName,
          version: b.version,
          kind: 'building',
          orgId: b.orgID,
        });
        return { body: { message: RENAMED_MESSAGES.building, building } };
      }
      if (b.orgID !== undefined && b.buildName !== undefined) {
        const building = await createBuilding(ports, user, b.orgID, b.buildName);
        return { status: 201, body: { message: TREE_MESSAGES.buildingCreated, orgID: b.orgID, building } };
      }
      if (b.orgID !== undefined) {
        const organization = await renameNode(ports, user, {
          id: b.orgID,
          value: b.orgName,
          version: b.version,
          kind: 'organization',
        });
        return { body: { message: RENAMED_MESSAGES.organization, organization } };
      }
      const organization = await createOrganization(ports, user, b.orgName);
      return { status: 201, body: { message: TREE_MESSAGES.organizationCreated, organization } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/createOrUpdateFloor',
    domain,
    access: { minRole: 2 },
    summary: 'Creates a floor in a building (buildID, floorName), or renames one (floorID).',
    request: body({ buildID: id, floorName: name, floorID: id.optional(), version }),
    handler: async ({ user, body: b, ports }) => {
      if (b.floorID !== undefined) {
        const floor = await renameNode(ports, user, {
          id: b.floorID,
          value: b.floorName,
          version: b.version,
          kind: 'floor',
          buildId: b.buildID,
        });
        return { body: { message: TREE_MESSAGES.floorRenamed, floor } };
      }
      const floor = await createFloor(ports, user, b.buildID, b.floorName);
      return { status: 201, body: { message: TREE_MESSAGES.floorCreated, floor } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/updateOrgBuildFloorName',
    domain,
    access: { minRole: 2 },
    summary: 'Renames an organization, building or floor.',
    request: body({ id, value: name, version }),
    handler: async ({ user, body: b, ports }) => {
      const node = await renameNode(ports, user, { id: b.id, value: b.value, version: b.version });
      return { body: { message: RENAMED_MESSAGES[node.type], node } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/deleteOrgBuildFloor',
    domain,
    access: { minRole: 2 },
    summary:
      'Deletes an organization, building or floor with everything under it: floors, their plans, ' +
      'and the placement of their devices (the devices stay in the organization, off any floor). ' +
      'The node is hidden at once; what lies under it is removed right after, off the request.',
    request: body({
      id,
      type: z.enum(['organization', 'building', 'floor']),
      // Sent by older clients; the server works out what lies under the node itself.
      floorID: id.optional(),
      buildCount: z.number().int().min(0).optional(),
      version,
    }),
    handler: async ({ user, body: b, ports }) => {
      await deleteNode(ports, user, { id: b.id, type: b.type, version: b.version });
      return { body: { message: TREE_MESSAGES.deleted } };
    },
  }),
];
