/** Role numbers (specification: roles). A missing role counts as read-only. */
export const Role = {
  readOnly: 0,
  readWrite: 1,
  admin: 2,
  owner: 3,
} as const;
export type RoleNumber = (typeof Role)[keyof typeof Role];

export const roleNames: Record<RoleNumber, string> = {
  0: 'Read-only',
  1: 'Read/Write',
  2: 'Admin',
  3: 'Argentum',
};

export function toRole(value: unknown): RoleNumber {
  return value === 1 || value === 2 || value === 3 ? value : 0;
}
