import type { BuildingView, FloorView, OrganizationView } from '@argentum/contracts';

/** The tree as getUsersOrganisations answers it (the contracts' wire types). */
export type Floor = FloorView;
export type Building = BuildingView;
export type Organization = OrganizationView;

export interface FloorLocation {
  organization: Organization;
  building: Building;
  floor: Floor;
}

import type { TreeNodeKind } from '@argentum/contracts';
export type TreeNodeType = TreeNodeKind;

/** A node of the tree as the editing controls see it. */
export interface TreeNodeRef {
  type: TreeNodeType;
  id: string;
  name: string;
  version: number | undefined;
}
