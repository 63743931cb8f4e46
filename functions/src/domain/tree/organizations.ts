import { memberOrgIds } from '@argentum/contracts';
import { JsonText } from '../../lib/json-text';
import type { AuthUser } from '../users/user';
import type { TreeStore } from './ports';
import { byName } from '../../lib/by-name';
import type { OrganizationView } from './tree';

/**
 * The organizations the user may see, each with its buildings and floors, by name, as the JSON text
 * of the answer: each organization's view is stored as its JSON fragment (compressed), and only
 * spliced here.
 * Deleted nodes (and everything under them) are hidden; their removal runs off the request path.
 */
export async function organizationsOf(
  deps: { tree: Pick<TreeStore, 'readOrganizationViews'> },
  user: AuthUser,
): Promise<JsonText<{ organizations: OrganizationView[] }>> {
  const views = await deps.tree.readOrganizationViews(memberOrgIds(user.orgRoles));
  views.sort((a, b) => byName(a.orgName, b.orgName));
  return JsonText.join('{"organizations":', JsonText.array(views.map((v) => v.view)), '}');
}
