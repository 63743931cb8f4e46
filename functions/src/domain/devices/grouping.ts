import {
  CANNOT_GROUP_TYPE_TEXT,
  GROUP_NAME_UNIQUE_TEXT,
  GROUP_NUMBER_MAX,
  GROUP_NUMBER_MIN,
  GROUPABLE_DEVICE_TYPES,
  GROUPED_TEXT,
  MIN_ROLE,
  NOT_IN_GROUP_TEXT,
  SAME_TYPE_TEXT,
  SELECT_TO_GROUP_TEXT,
  SELECT_TO_UNGROUP_TEXT,
  SINGLE_DEVICE_GROUP_TEXT,
  UNGROUP_FIRST_TEXT,
  UNGROUPED_TEXT,
} from '@argentum/contracts';
import { validationError } from '../errors';
import type { AuthUser } from '../users/user';
import { accessibleDevices } from './access';
import { type Device, versionOf } from './device';
import { DEVICE_MESSAGES } from './texts';
import { type DeviceChange, type DevicePorts, type GroupChange, MAX_COMMIT_ITEMS } from './ports';
import { withRetries, written } from './rules';

/**
 * Grouping lights or motion sensors (specification sections 4-5), roles above 1 in the devices'
 * organization. A group is an item of its own next to its devices: creating it claims its number in
 * the organization, and every write names the versions it read, so two admins grouping the same
 * device at once cannot both win (the loser is answered from what the winner wrote).
 */

/** Lost races are tried again on fresh reads; a fresh group number is drawn each time. */
const ATTEMPTS = 5;

const unique = (ids: readonly string[]) => [...new Set(ids.map((id) => id.trim()))];

function randomGroupNumber(random: () => number): number {
  return GROUP_NUMBER_MIN + Math.floor(random() * (GROUP_NUMBER_MAX - GROUP_NUMBER_MIN + 1));
}

/** Checks the grouping rules in the order the specification lists its warnings. */
function assertGroupable(devices: Device[]): void {
  if (new Set(devices.map((d) => d.orgID)).size > 1)
    throw validationError(DEVICE_MESSAGES.differentOrganizations);
  if (new Set(devices.map((d) => d.devType)).size > 1) throw validationError(SAME_TYPE_TEXT);
  if (!GROUPABLE_DEVICE_TYPES.includes(devices[0]?.devType ?? -1))
    throw validationError(CANNOT_GROUP_TYPE_TEXT);
  if (devices.some((d) => d.groupNumber !== undefined)) throw validationError(UNGROUP_FIRST_TEXT);
  const names = devices.map((d) => d.devName.trim().toLowerCase());
  if (new Set(names).size !== names.length) throw validationError(GROUP_NAME_UNIQUE_TEXT);
}

/** groupDevices: a new group of the devices; answers its number. */
export async function groupDevices(
  deps: DevicePorts,
  user: AuthUser,
  devIds: readonly string[],
): Promise<{ data: number; message: string }> {
  const ids = unique(devIds);
  if (ids.length === 0) throw validationError(SELECT_TO_GROUP_TEXT);
  if (ids.length === 1) throw validationError(SINGLE_DEVICE_GROUP_TEXT);
  if (ids.length + 1 > MAX_COMMIT_ITEMS)
    throw validationError(DEVICE_MESSAGES.tooManyDevices(MAX_COMMIT_ITEMS - 1));
  const random = deps.random ?? Math.random;
  return withRetries(ATTEMPTS, async () => {
    const devices = await accessibleDevices(deps, user, ids, MIN_ROLE.administer);
    assertGroupable(devices);
    const orgId = (devices[0] as Device).orgID;
    const groupNumber = randomGroupNumber(random);
    written(
      await deps.devices.commit({
        devices: devices.map((d) => ({
          devId: d.devID,
          orgId,
          expectedVersion: versionOf(d),
          set: { groupNumber },
        })),
        floors: [],
        groups: [{ kind: 'create', orgId, groupNumber, members: ids }],
        live: [{ kind: 'organization', id: orgId, orgId }],
        now: deps.clock.now().toISOString(),
      }),
    );
    return { data: groupNumber, message: GROUPED_TEXT };
  });
}

/**
 * ungroupDevices: the devices leave their groups; a group left with one device is dissolved. Answers
 * every device that left a group (the selected ones and the last members of dissolved groups).
 */
export async function ungroupDevices(
  deps: DevicePorts,
  user: AuthUser,
  devIds: readonly string[],
): Promise<{ result: 'OK'; message: string; ungrouped: string[] }> {
  const ids = unique(devIds);
  if (ids.length === 0) throw validationError(SELECT_TO_UNGROUP_TEXT);
  return withRetries(ATTEMPTS, async () => {
    const selected = await accessibleDevices(deps, user, ids, MIN_ROLE.administer);
    if (selected.some((d) => d.groupNumber === undefined)) throw validationError(NOT_IN_GROUP_TEXT);

    const groups = new Map<string, { orgId: string; groupNumber: number; removed: Set<string> }>();
    for (const d of selected) {
      const key = `${d.orgID}#${d.groupNumber}`;
      const entry = groups.get(key) ?? {
        orgId: d.orgID,
        groupNumber: d.groupNumber as number,
        removed: new Set(),
      };
      entry.removed.add(d.devID);
      groups.set(key, entry);
    }
    const leaving = new Set(ids);
    const groupChanges: GroupChange[] = [];
    for (const { orgId, groupNumber, removed } of groups.values()) {
      const group = await deps.devices.getGroup(orgId, groupNumber);
      // A group stored before groups had items of their own: its members are the devices carrying its number.
      const members =
        group?.members ??
        (await deps.devices.ofOrganization(orgId))
          .filter((d) => d.groupNumber === groupNumber)
          .map((d) => d.devID);
      const remaining = members.filter((id) => !removed.has(id));
      if (remaining.length <= 1) {
        for (const id of remaining) leaving.add(id);
        if (group) groupChanges.push({ kind: 'delete', orgId, groupNumber, expectedVersion: group.version });
      } else if (group) {
        groupChanges.push({
          kind: 'update',
          orgId,
          groupNumber,
          members: remaining,
          expectedVersion: group.version,
        });
      }
    }
    const others = [...leaving].filter((id) => !selected.some((d) => d.devID === id));
    const devices = [...selected, ...(await deps.devices.getMany(others))].filter(
      (d) => d.groupNumber !== undefined && groups.has(`${d.orgID}#${d.groupNumber}`),
    );
    if (devices.length + groupChanges.length > MAX_COMMIT_ITEMS) {
      throw validationError(DEVICE_MESSAGES.tooManyDevices(MAX_COMMIT_ITEMS - groupChanges.length));
    }
    const changes: DeviceChange[] = devices.map((d) => ({
      devId: d.devID,
      orgId: d.orgID,
      expectedVersion: versionOf(d),
      removeGroup: true,
    }));
    written(
      await deps.devices.commit({
        devices: changes,
        floors: [],
        groups: groupChanges,
        live: [],
        now: deps.clock.now().toISOString(),
      }),
    );
    return { result: 'OK', message: UNGROUPED_TEXT, ungrouped: devices.map((d) => d.devID).sort() };
  });
}
