import { apiCalls } from '@argentum/contracts/api';
import {
  createBuilding,
  createFloor,
  createOrganization,
  deleteNode,
  renameNode,
  type TreeEditingPorts,
} from '../domain/tree/editing';
import { RENAMED_MESSAGES, TREE_MESSAGES } from '../domain/tree/texts';
import { organizationsOf } from '../domain/tree/organizations';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'tree';
/** What the tree's handlers need; the tree Lambda (lambda/api-tree.ts) wires them. */
export type TreeRoutePorts = RoutePorts & TreeEditingPorts;
const route = routesFor<TreeRoutePorts>();

export const treeRoutes = [
  route({
    call: apiCalls.getUsersOrganisations,
    domain,
    access: { minRole: 0 },
    summary: "The signed-in user's organizations with their buildings and floors.",
    handler: async ({ user, ports }) => ({ body: await organizationsOf(ports, user) }),
  }),
  route({
    call: apiCalls.createOrUpdateOrgBuild,
    domain,
    access: { minRole: 2 },
    summary:
      'Creates an organization (orgName), or a building in an organization (orgID, buildName); ' +
      'renames an organization (orgID, orgName) or a building (buildID, buildName). ' +
      "A new organization is added to its creator's organizations.",
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
    call: apiCalls.createOrUpdateFloor,
    domain,
    access: { minRole: 2 },
    summary: 'Creates a floor in a building (buildID, floorName), or renames one (floorID).',
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
    call: apiCalls.updateOrgBuildFloorName,
    domain,
    access: { minRole: 2 },
    summary: 'Renames an organization, building or floor.',
    handler: async ({ user, body: b, ports }) => {
      const node = await renameNode(ports, user, { id: b.id, value: b.value, version: b.version });
      return { body: { message: RENAMED_MESSAGES[node.type], node } };
    },
  }),
  route({
    call: apiCalls.deleteOrgBuildFloor,
    domain,
    access: { minRole: 2 },
    summary:
      'Deletes an organization, building or floor with everything under it: floors, their plans, ' +
      'and the placement of their devices (the devices stay in the organization, off any floor). ' +
      'The node is hidden at once; what lies under it is removed right after, off the request.',
    handler: async ({ user, body: b, ports }) => {
      await deleteNode(ports, user, { id: b.id, type: b.type, version: b.version });
      return { body: { message: TREE_MESSAGES.deleted } };
    },
  }),
];
