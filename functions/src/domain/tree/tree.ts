/** The organization tree: organizations > buildings > floors. */
export interface Organization {
  orgId: string;
  orgName: string;
}

export interface Building {
  orgId: string;
  buildId: string;
  buildName: string;
}

export interface Floor {
  orgId: string;
  buildId: string;
  floorId: string;
  floorName: string;
  /** Device types present on the floor, for the legend and the options menu. */
  floorDevTypes: number[];
  editMode: boolean;
}

/** The wire shape of getUsersOrganisations (specification: Organization, Building, Floor). */
export interface OrganizationView {
  _id: string;
  orgName: string;
  orgID: string;
  buildData: {
    _id: string;
    buildName: string;
    floors: { _id: string; floorName: string; orgID: string; buildID: string; floorDevTypes: number[] }[];
  }[];
}

const byName = (a: string, b: string) =>
  a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });

export function toOrganizationView(
  org: Organization,
  buildings: Building[],
  floors: Floor[],
): OrganizationView {
  return {
    _id: org.orgId,
    orgName: org.orgName,
    orgID: org.orgId,
    buildData: [...buildings]
      .sort((a, b) => byName(a.buildName, b.buildName))
      .map((b) => ({
        _id: b.buildId,
        buildName: b.buildName,
        floors: floors
          .filter((f) => f.buildId === b.buildId)
          .sort((x, y) => byName(x.floorName, y.floorName))
          .map((f) => ({
            _id: f.floorId,
            floorName: f.floorName,
            orgID: f.orgId,
            buildID: f.buildId,
            floorDevTypes: f.floorDevTypes,
          })),
      })),
  };
}

export const sortOrganizations = (views: OrganizationView[]) =>
  [...views].sort((a, b) => byName(a.orgName, b.orgName));
