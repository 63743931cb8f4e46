import { readOrganizationTrees } from '../../stores/tree';
import type { AuthUser } from '../users/user';
import { resumeSweeps } from './sweep';
import { type OrganizationView, sortOrganizations, toOrganizationView } from './tree';

/**
 * The organizations the user may see, each with its buildings and floors. Deleted nodes are hidden;
 * when the read meets a delete whose sweep was interrupted, it finishes that sweep.
 */
export async function organizationsOf(user: AuthUser): Promise<OrganizationView[]> {
  const { trees, tombstones } = await readOrganizationTrees(user.orgIds);
  if (tombstones.length > 0) await resumeSweeps(tombstones);
  return sortOrganizations(trees.map((t) => toOrganizationView(t.org, t.buildings, t.floors)));
}
