import { memberOrgIds } from '@argentum/contracts';
import type { AuthUser } from '../users/user';
import type { TreeStore } from './ports';
import { type OrganizationView, sortOrganizations, toOrganizationView } from './tree';

/**
 * The organizations the user may see, each with its buildings and floors. Deleted nodes (and
 * everything under them) are hidden; their removal runs off the request path.
 */
export async function organizationsOf(
  deps: { tree: TreeStore },
  user: AuthUser,
): Promise<OrganizationView[]> {
  const { trees } = await deps.tree.readOrganizationTrees(memberOrgIds(user.orgRoles));
  return sortOrganizations(trees.map((t) => toOrganizationView(t.org, t.buildings, t.floors)));
}
