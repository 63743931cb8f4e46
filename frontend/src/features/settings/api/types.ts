import type { RoleNumber } from '@argentum/contracts';

/** An organization the administrator runs, as the settings need it (the app passes the tree's). */
export interface AdminOrganization {
  orgID: string;
  orgName: string;
}

/** A user as POST /api/fetchUsers answers (the contracts' wire type). */
export type { ManagedUser } from '@argentum/contracts';

export interface AccessChange {
  selectedUserId: string;
  role: RoleNumber;
  editUserOrgIds: string[];
}

export interface Invitation {
  email: string;
  organizations: AdminOrganization[];
}
