import { floorPlanRemovalKeys } from '../files/keys';
import type { NodeRef, SweepPorts } from './ports';
import type { TreeNode } from './tree';

export interface SweepOptions {
  /**
   * Asked before every step; answering true stops the sweep there (what is left is resumed by the
   * next delivery of the delete). The sweeper Lambda stops a little before its timeout.
   */
  shouldStop?: () => boolean;
}

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
  const shouldStop = options.shouldStop ?? (() => false);
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
  // The plan before its renditions (files/keys.ts). A plan commit that writes after these deletes finds
  // the delete committed (a node above the plan marked deleted, or gone) when it checks after writing, and
  // removes its plan itself (domain/files/floor-plans.ts).
  for (const key of floorPlanRemovalKeys(floor.orgId, floor.id)) await step(() => deps.files.delete(key));
  await step(() => deps.tree.removeNodeItem(floor));
}

/**
 * Finishes a committed delete the sweeper was handed (a node written with deletedAt). The node is read
 * again first: when it is gone the sweep already finished and nothing is touched, so a delete delivered
 * twice changes nothing the second time. Answers true when nothing is left to do.
 */
export async function finishDelete(
  deps: SweepPorts,
  ref: NodeRef,
  options: SweepOptions = {},
): Promise<boolean> {
  const current = await deps.tree.getNode(ref);
  if (!current?.deletedAt) return true;
  return sweepDeleted(deps, current, options);
}
