import type { UserRecord } from './user';

/** Outcome of a write conditioned on the version that was read. */
export type SaveOutcome = 'saved' | 'changed-meanwhile';

/** Where user records live (the DynamoDB adapter is stores/users.ts). */
export interface UserStore {
  get(userId: string): Promise<UserRecord | undefined>;
  /** Through an eventually consistent index: decide on `get` of the result when it matters. */
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /** The records of these users; unknown ids are left out. */
  getMany(userIds: readonly string[]): Promise<UserRecord[]>;
  /** Ids of the users listed as members of an organization (a lookup: check each user's record). */
  memberIds(orgId: string): Promise<string[]>;
  /**
   * Writes `next` provided the stored record is still `read` (same version), or absent when `read`
   * is undefined; memberships are kept in step. `next.version` must be `read.version + 1`.
   * The one way to write a user record.
   */
  saveIfUnchanged(next: UserRecord, read: UserRecord | undefined): Promise<SaveOutcome>;
  /** Removes a membership lookup whose user is gone or no longer in the organization. */
  forgetMembership(orgId: string, userId: string): Promise<void>;
  /** Deletes the record and its memberships, provided it is still `read`. */
  deleteIfUnchanged(read: UserRecord): Promise<'deleted' | 'changed-meanwhile'>;
}
