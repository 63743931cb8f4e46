import type { SweepPorts } from './ports';
import type { TreeNode } from './tree';

export interface SweepOptions {
  /**
   * Asked before every step; answering true stops the sweep there (what is left is resumed later).
   * By default a sweep stops after SWEEP_TIME_BUDGET_MS, so a request answers well within the API
   * Gateway limit even for a very large organization.
   */
  shouldStop?: () => boolean;
}

/** How long one request spends sweeping before leaving the rest for the next read or delete. */
export const SWEEP_TIME_BUDGET_MS = 15_000;

class SweepStopped extends Error {}

/**
 * Removes what lies under a node whose delete is committed (it carries deletedAt), then the node
 * itself. Every step is idempotent and the node goes last, so an interrupted sweep is simply run
 * again. Answers true when the sweep finished; failures are logged and leave the rest for later.
 */
export async function sweepDeleted(
  deps: SweepPorts,
  node: TreeNode,
  options: SweepOptions = {},
): Promise<boolean> {
  const deadline = Date.now() + SWEEP_TIME_BUDGET_MS;
  const shouldStop = options.shouldStop ?? (() => Date.now() > deadline);
  const step = async (work: () => Promise<unknown>) => {
    if (shouldStop()) throw new SweepStopped();
    await work();
  };
  try {
    if (node.kind === 'floor') {
      await sweepFloor(deps, node, step);
    } else {
      const floors = await deps.tree.listFloors(node.orgId, node.kind === 'building' ? node.id : undefined);
      for (const floor of floors) await sweepFloor(deps, floor, step);
      if (node.kind === 'organization') {
        for (const building of await deps.tree.listBuildings(node.orgId)) {
          await step(() => deps.tree.removeNodeItem(building));
        }
        // Nobody keeps access to an organization that no longer exists.
        for (const userId of await deps.members.memberIds(node.orgId)) {
          await step(() => deps.members.leaveOrganization(userId, node.orgId));
        }
      }
      await step(() => deps.tree.removeNodeItem(node));
    }
    return true;
  } catch (error) {
    if (!(error instanceof SweepStopped)) {
      deps.logger.log('error', 'tree sweep failed; it is resumed by the next attempt', {
        node: { kind: node.kind, id: node.id, orgId: node.orgId },
        error: error instanceof Error ? { name: error.name, message: error.message } : error,
      });
    }
    return false;
  }
}

async function sweepFloor(
  deps: SweepPorts,
  floor: TreeNode,
  step: (work: () => Promise<unknown>) => Promise<void>,
) {
  await step(() => deps.devices.moveDevicesOffFloor(floor.id, deps.clock.now().toISOString()));
  await step(() => deps.files.removeFloorPlan(floor.orgId, floor.id));
  await step(() => deps.tree.removeNodeItem(floor));
}

/** Finishes the sweeps a read came across (deletes whose sweep was interrupted). */
export async function resumeSweeps(
  deps: SweepPorts,
  tombstones: readonly TreeNode[],
  options: SweepOptions = {},
): Promise<void> {
  // An organization's sweep covers everything in it; a building's covers its floors.
  const orgs = new Set(tombstones.filter((t) => t.kind === 'organization').map((t) => t.orgId));
  const buildings = new Set(tombstones.filter((t) => t.kind === 'building').map((t) => t.id));
  const roots = tombstones.filter(
    (t) =>
      t.kind === 'organization' ||
      (!orgs.has(t.orgId) && (t.kind === 'building' || !buildings.has(t.buildId ?? ''))),
  );
  for (const root of roots) await sweepDeleted(deps, root, options);
}
