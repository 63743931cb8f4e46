import type { Clock } from '../ports';
import type { UserStore } from '../users/ports';

export interface SignedIn {
  subject: string;
  accessToken: string;
  refreshToken: string;
}

export interface Refreshed {
  subject: string;
  accessToken: string;
  /** When the session began (the token's `auth_time`, epoch seconds); refreshes keep it on AWS. */
  authTime: number | undefined;
}

/** The identity store refused a password (Cognito: InvalidPasswordException on an admin call). */
export class PasswordRejected extends Error {
  constructor() {
    super('The identity store refused the password.');
    this.name = 'PasswordRejected';
  }
}

/** The identity store's password rules (Cognito password policy). */
export interface PasswordPolicy {
  minLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireDigits: boolean;
  requireSymbols: boolean;
}

/** The identity store (Cognito; the adapter is adapters/identity.ts). */
export interface Identity {
  /** Undefined when the credentials sign nobody in. */
  signIn(email: string, password: string): Promise<SignedIn | undefined>;
  refresh(refreshToken: string): Promise<Refreshed | undefined>;
  revoke(refreshToken: string): Promise<void>;
  /** Revokes every refresh token of the user. */
  signOutEverywhere(email: string): Promise<void>;
  verifyPassword(email: string, password: string): Promise<boolean>;
  subjectOfEmail(email: string): Promise<string | undefined>;
  /** Creates the identity; undefined when it exists already. Throws PasswordRejected. */
  createUser(email: string, password: string): Promise<string | undefined>;
  /** Throws PasswordRejected. */
  setPassword(email: string, password: string): Promise<void>;
  deleteUser(email: string): Promise<void>;
  passwordPolicy(): Promise<PasswordPolicy | undefined>;
}

/** A message with an HTML part and a plain-text alternative; the HTML must already be escaped. */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export type AccountTokenKind = 'invite' | 'reset';

/** An invite or password-reset token as stored: keyed by the token's SHA-256 hash, never the token. */
export interface AccountTokenRecord {
  tokenHash: string;
  kind: AccountTokenKind;
  email: string;
  /** Invite: the organizations the invitee joins. Reset: empty. */
  orgIds: string[];
  orgNames: string[];
  /** Who asked for it (the inviting admin); absent for resets. */
  createdBy?: string;
  createdAt: string;
  /** Epoch seconds; also the table's TTL attribute, so DynamoDB removes it some time after. */
  expiresAt: number;
  /** Set when the token has been used. */
  usedAt?: string;
}

/** Invite and reset tokens (the DynamoDB adapter is stores/account-tokens.ts). */
export interface AccountTokenStore {
  put(record: AccountTokenRecord): Promise<void>;
  get(tokenHash: string): Promise<AccountTokenRecord | undefined>;
  /** Marks a usable token of this kind used by `claimId`; undefined when it cannot be claimed. */
  claim(
    tokenHash: string,
    kind: AccountTokenKind,
    claimId: string,
    now: Date,
  ): Promise<AccountTokenRecord | undefined>;
  /** Gives a claim back (the work it guarded failed), so the link can be tried again. */
  release(tokenHash: string, claimId: string): Promise<void>;
}

/** Settings the accounts use cases read. */
export interface AccountSettings {
  /** Public origin of the web app, for links in e-mail. */
  appOrigin: string;
}

/** What the accounts use cases need; the auth Lambda (lambda/api-auth.ts) wires them. */
export interface AccountPorts {
  users: UserStore;
  identity: Identity;
  mailer: Mailer;
  tokens: AccountTokenStore;
  clock: Clock;
  settings: AccountSettings;
  /** Stops delivery of organizations' real-time messages to a user's open connections. */
  realtime: { revoke(userId: string, orgIds: readonly string[]): Promise<void> };
}
