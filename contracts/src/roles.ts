/**
 * Role codes and the rules built on them (specification: Roles). A role belongs to a membership:
 * a user has one role in each organization they belong to. A missing role counts as read-only.
 */
export const Role = {
  readOnly: 0,
  readWrite: 1,
  admin: 2,
  owner: 3,
} as const;
export type RoleNumber = (typeof Role)[keyof typeof Role];

export const roleNumbers: readonly RoleNumber[] = [Role.readOnly, Role.readWrite, Role.admin, Role.owner];

export const roleNames: Record<RoleNumber, string> = {
  0: 'Read-only',
  1: 'Read/Write',
  2: 'Admin',
  3: 'Argentum',
};

export function toRole(value: unknown): RoleNumber {
  return value === 1 || value === 2 || value === 3 ? value : Role.readOnly;
}

export const roleName = (value: unknown): string => roleNames[toRole(value)];

/** A user's role in each of their organizations: organization id -> role. */
export type OrgRoles = Readonly<Record<string, RoleNumber>>;

/** The role in one organization; undefined when the user is not a member of it. */
export const roleIn = (orgRoles: OrgRoles, orgId: string): RoleNumber | undefined =>
  Object.hasOwn(orgRoles, orgId) ? orgRoles[orgId] : undefined;

/** Whether the user has at least `minRole` in the organization (members only). */
export function hasRole(orgRoles: OrgRoles, orgId: string, minRole: RoleNumber): boolean {
  const role = roleIn(orgRoles, orgId);
  return role !== undefined && role >= minRole;
}

/** The organizations the user belongs to, in a stable order (stores keep no order of their own). */
export const memberOrgIds = (orgRoles: OrgRoles): string[] => Object.keys(orgRoles).sort();

/** The organizations where the user has at least `minRole`. */
export const orgIdsWithRole = (orgRoles: OrgRoles, minRole: RoleNumber): string[] =>
  memberOrgIds(orgRoles).filter((orgId) => (orgRoles[orgId] ?? Role.readOnly) >= minRole);

/** The organizations the user administers (specification: the session's `orgID`). */
export const administeredOrgIds = (orgRoles: OrgRoles): string[] => orgIdsWithRole(orgRoles, Role.admin);

/** The highest of the user's roles (the session's `roles`): what the UI shows globally. */
export const highestRole = (orgRoles: OrgRoles): RoleNumber =>
  Object.values(orgRoles).reduce<RoleNumber>((max, role) => (role > max ? role : max), Role.readOnly);

/** Roles an administrator with `granterRole` may grant: never above their own, role 3 only by role 3. */
export const assignableRoles = (granterRole: RoleNumber): RoleNumber[] =>
  roleNumbers.filter((role) => role <= granterRole && (role < Role.owner || granterRole === Role.owner));

/** Minimum roles of the specification's capabilities. */
export const MIN_ROLE = {
  /** Sliders, device and data-point names, commands. */
  control: Role.readWrite,
  /** Tree editing, Settings, users, logos, floor plans, grouping. */
  administer: Role.admin,
  /** Placing gateways (type 0). */
  gateways: Role.owner,
  /** Linking a device to a vendor account (its VENDOR_LINK_PROPERTIES). */
  vendorLinks: Role.admin,
} as const;
