export interface Floor {
  _id: string;
  floorName: string;
  orgID: string;
  buildID: string;
  /** Raised by every change; edits send the version they saw, so concurrent edits are detected. */
  version?: number;
}

export interface Building {
  _id: string;
  buildName: string;
  version?: number;
  floors: Floor[];
}

export interface Organization {
  _id: string;
  orgName: string;
  orgID: string;
  version?: number;
  buildData: Building[];
}

export interface FloorLocation {
  organization: Organization;
  building: Building;
  floor: Floor;
}

export type TreeNodeType = 'organization' | 'building' | 'floor';

/** A node of the tree as the editing controls see it. */
export interface TreeNodeRef {
  type: TreeNodeType;
  id: string;
  name: string;
  version: number | undefined;
}
