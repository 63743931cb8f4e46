import type { RoleNumber } from '@argentum/events/contracts';

/** An organization the administrator runs, as the settings need it (the app passes the tree's). */
export interface AdminOrganization {
  orgID: string;
  orgName: string;
}

/** A user as POST /api/fetchUsers answers (see that route's summary in the API documentation). */
export interface ManagedUser {
  id: string;
  userName: string;
  email: string;
  roles: RoleNumber;
  /** Organizations the user shares with those the administrator administers. */
  org: string[];
  /** The user's role in each of those organizations. */
  orgRoles: Record<string, RoleNumber>;
  /** How many other organizations the user belongs to (not named). */
  otherOrgCount: number;
  editable: boolean;
  deletable: boolean;
}

export interface AccessChange {
  selectedUserId: string;
  role: RoleNumber;
  editUserOrgIds: string[];
}

export interface Invitation {
  email: string;
  organizations: AdminOrganization[];
}
