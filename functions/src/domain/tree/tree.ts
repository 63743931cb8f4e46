import type { BuildingView, FloorView, OrganizationView } from '@argentum/contracts';
import { byName } from '../../lib/by-name';

/** The wire shapes of getUsersOrganisations live in the contracts. */
export type { BuildingView, FloorView, OrganizationView };

/** The organization tree: organizations > buildings > floors. */
export interface Organization {
  orgId: string;
  orgName: string;
  /** Raised by every change; writers send the version they saw (optimistic concurrency). */
  version?: number;
}

export interface Building {
  orgId: string;
  buildId: string;
  buildName: string;
  version?: number;
}

export interface Floor {
  orgId: string;
  buildId: string;
  floorId: string;
  floorName: string;
  /** Device types present on the floor, for the legend and the options menu. */
  floorDevTypes: number[];
  editMode: boolean;
  version?: number;
}

import type { TreeNodeKind } from '@argentum/contracts';
export type { TreeNodeKind };

/** One node of the tree, wherever it sits, as the editing use cases see it. */
export interface TreeNode {
  kind: TreeNodeKind;
  id: string;
  orgId: string;
  /** The building of a building or floor. */
  buildId?: string;
  name: string;
  version: number;
  /** Set when a delete has been committed and the removal of what lies under it may still be running. */
  deletedAt?: string;
}

export const toFloorView = (f: Floor): FloorView => ({
  _id: f.floorId,
  floorName: f.floorName,
  orgID: f.orgId,
  buildID: f.buildId,
  floorDevTypes: f.floorDevTypes,
  version: f.version ?? 0,
});

export const toBuildingView = (b: Building, floors: Floor[] = []): BuildingView => ({
  _id: b.buildId,
  buildName: b.buildName,
  version: b.version ?? 0,
  floors: floors.sort((x, y) => byName(x.floorName, y.floorName)).map(toFloorView),
});

export function toOrganizationView(
  org: Organization,
  buildings: Building[],
  floors: Floor[],
): OrganizationView {
  // Group once: a large organization must not cost buildings x floors comparisons.
  const floorsByBuilding = new Map<string, Floor[]>();
  for (const floor of floors) {
    const list = floorsByBuilding.get(floor.buildId);
    if (list) list.push(floor);
    else floorsByBuilding.set(floor.buildId, [floor]);
  }
  return {
    _id: org.orgId,
    orgName: org.orgName,
    orgID: org.orgId,
    version: org.version ?? 0,
    buildData: [...buildings]
      .sort((a, b) => byName(a.buildName, b.buildName))
      .map((b) => toBuildingView(b, floorsByBuilding.get(b.buildId))),
  };
}
