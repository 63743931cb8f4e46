import * as z from 'zod';
import { organizationsOf } from '../domain/tree/organizations';
import { body, id, notAvailableYet } from '../http/schemas';
import { route } from '../http/types';

const domain = 'tree';
const name = z.string().max(100);

export const treeRoutes = [
  route({
    method: 'POST',
    path: '/api/dashboard/getUsersOrganisations',
    domain,
    access: { minRole: 0 },
    summary: "The signed-in user's organizations with their buildings and floors.",
    // userData is what older clients send; the server always answers for the signed-in user.
    request: body({ userData: z.unknown().optional() }),
    handler: async ({ user }) => ({ body: { organizations: await organizationsOf(user) } }),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/createOrUpdateOrgBuild',
    domain,
    access: { minRole: 2 },
    summary: 'Creates an organization, or a building in an organization.',
    request: body({
      orgName: name.optional(),
      buildName: name.optional(),
      buildID: id.optional(),
      orgID: id.optional(),
    }),
    handler: notAvailableYet('Creating organizations and buildings'),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/createOrUpdateFloor',
    domain,
    access: { minRole: 2 },
    summary: 'Creates a floor in a building.',
    request: body({ buildID: id, floorName: name, floorID: id.optional() }),
    handler: notAvailableYet('Creating floors'),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/updateOrgBuildFloorName',
    domain,
    access: { minRole: 2 },
    summary: 'Renames an organization, building or floor.',
    request: body({ id, value: name }),
    handler: notAvailableYet('Renaming'),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/deleteOrgBuildFloor',
    domain,
    access: { minRole: 2 },
    summary: 'Deletes an organization, building or floor with everything under it.',
    request: body({
      id,
      type: z.string().max(20),
      floorID: id.optional(),
      buildCount: z.number().int().min(0).optional(),
    }),
    handler: notAvailableYet('Deleting'),
  }),
];
