import { getOrganizationTrees } from '../../stores/tree';
import type { AuthUser } from '../users/user';
import { type OrganizationView, sortOrganizations, toOrganizationView } from './tree';

/** The organizations the user may see, each with its buildings and floors. */
export async function organizationsOf(user: AuthUser): Promise<OrganizationView[]> {
  const trees = await getOrganizationTrees(user.orgIds);
  return sortOrganizations(trees.map((t) => toOrganizationView(t.org, t.buildings, t.floors)));
}
