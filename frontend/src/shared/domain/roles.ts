/** Role codes of the specification (section 3): a missing role counts as read-only. */
export const Role = {
  ReadOnly: 0,
  ReadWrite: 1,
  Admin: 2,
  PlatformOwner: 3,
} as const;

export type RoleCode = (typeof Role)[keyof typeof Role];

const roleNames: Record<RoleCode, string> = {
  [Role.ReadOnly]: 'Read-only',
  [Role.ReadWrite]: 'Read/Write',
  [Role.Admin]: 'Admin',
  [Role.PlatformOwner]: 'Argentum',
};

export function normalizeRole(value: unknown): RoleCode {
  return value === 1 || value === 2 || value === 3 ? value : Role.ReadOnly;
}

export function roleName(value: unknown): string {
  return roleNames[normalizeRole(value)];
}
