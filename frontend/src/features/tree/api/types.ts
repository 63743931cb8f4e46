export interface Floor {
  _id: string;
  floorName: string;
  orgID: string;
  buildID: string;
}

export interface Building {
  _id: string;
  buildName: string;
  floors: Floor[];
}

export interface Organization {
  _id: string;
  orgName: string;
  orgID: string;
  buildData: Building[];
}

export interface FloorLocation {
  organization: Organization;
  building: Building;
  floor: Floor;
}
