import type { OrgRoles, RoleNumber } from './roles';
import type { ThemePreference } from './theme';

/**
 * What the API answers, as the front end reads it: one definition for the functions that build
 * these answers and the front end that shows them. The response schemas of `answers.ts` are checked
 * against these interfaces; requests are typed from `requests.ts`.
 */

/** The signed-in user (specification: User (session)), in the answers of login, refresh and password change. */
export interface SessionUser {
  id: string;
  userName: string;
  email: string;
  /** The highest of the user's roles, for what the UI shows everywhere (e.g. the Settings gear). */
  roles: RoleNumber;
  /** The organizations the user belongs to. */
  org: string[];
  /** The organizations the user administers. */
  orgID: string[];
  /** The role in each organization, for the controls the UI shows per organization. */
  orgRoles: OrgRoles;
  /** The colour theme the user chose (light when they never chose). */
  theme: ThemePreference;
}

/** getUsersOrganisations (specification: Organization, Building, Floor). */
export interface FloorView {
  _id: string;
  floorName: string;
  orgID: string;
  buildID: string;
  floorDevTypes: number[];
  /** Raised by every change; edits send the version they saw, so concurrent edits are detected. */
  version: number;
}

export interface BuildingView {
  _id: string;
  buildName: string;
  version: number;
  floors: FloorView[];
}

export interface OrganizationView {
  _id: string;
  orgName: string;
  orgID: string;
  version: number;
  buildData: BuildingView[];
}

/**
 * A user as an administrator sees them in Manage Users (/api/fetchUsers). `org` and `orgRoles` hold
 * only the organizations the user shares with those the administrator administers; `otherOrgCount`
 * counts the others without naming them.
 */
export interface ManagedUser {
  id: string;
  userName: string;
  email: string;
  /** The user's highest role among the shared organizations. */
  roles: RoleNumber;
  org: string[];
  orgRoles: OrgRoles;
  otherOrgCount: number;
  /** False for the administrator themselves and for users above the administrator in a shared organization. */
  editable: boolean;
  /** Editable, and in no organization beyond the administrator's (deleting removes the account). */
  deletable: boolean;
}
