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
export interface AccountPorts extends ThrottlePorts {
  users: UserStore;
  identity: Identity;
  mailer: Mailer;
  tokens: AccountTokenStore;
  clock: Clock;
  settings: AccountSettings;
  /** Stops delivery of organizations' real-time messages to a user's open connections. */
  realtime: { revoke(userId: string, orgIds: readonly string[]): Promise<void> };
  /** Mail that must not be sent on the request path (password resets) goes here, to the mailer. */
  mailJobs: JobQueue<MailJob>;
}

/** One counted key of the throttle (throttle.ts): an account or an address, for one kind of request. */
export interface AttemptKey {
  /** What is counted and by what: `sign-in:account`, `sign-in:address`, `reset-mail:account`, ... */
  kind: string;
  /** The account's normalized e-mail or the client address. */
  subject: string;
}

/** The open window of a key. */
export interface AttemptWindow {
  count: number;
  /** When the last counted attempt was made. */
  lastAt: Date;
  /** When the window closes and the count is forgotten. */
  closesAt: Date;
}

/** Atomic attempt counters that forget by themselves (the DynamoDB adapter is stores/attempts.ts). */
export interface AttemptCounter {
  /** The key's window at `now`, or undefined when none is open. */
  read(key: AttemptKey, now: Date): Promise<AttemptWindow | undefined>;
  /**
   * Counts one attempt atomically (concurrent attempts are all counted); when no window is open at
   * `now`, a new one opens that closes at `closesAt`. Answers the window before and after this one.
   */
  add(
    key: AttemptKey,
    now: Date,
    closesAt: Date,
  ): Promise<{ before: AttemptWindow | undefined; after: AttemptWindow }>;
  /** Keeps the window open at least until `until`. */
  keepOpenUntil(key: AttemptKey, until: Date): Promise<void>;
  /** Forgets the key's count. */
  clear(key: AttemptKey): Promise<void>;
}

/** How many attempts a key may have, and how long it is locked after that. */
export interface Limit {
  maxAttempts: number;
  windowSeconds: number;
  lockSeconds: number;
  maxLockSeconds: number;
}

/** The limits per kind of request, per account and per client address. */
export interface ThrottlePolicy {
  /** Failed sign-ins (wrong password, unknown e-mail); also the password checks of other calls. */
  signIn: { account: Limit; address: Limit };
  /** Password-reset mail requests: every request counts, it sends mail. */
  resetMail: { account: Limit; address: Limit };
}

/** What the throttled use cases need: the counters, the limits and the time. */
export interface ThrottlePorts {
  attempts: AttemptCounter;
  throttlePolicy: ThrottlePolicy;
  clock: Clock;
}

/** A mail job names only what the mailer needs to look the account up; nothing secret. */
export interface PasswordResetJob {
  kind: 'password-reset';
  email: string;
}

/** An error alarm's mail to the admins of its organization (domain/notifications/alarm-mail.ts). */
export interface AlarmMailJob {
  kind: 'alarm';
  notificationId: string;
}

/** The alarms collected for one recipient in one rate window (alarm-mail.ts), due now. */
export interface AlarmDigestJob {
  kind: 'alarm-digest';
  digestKey: string;
}

export type MailJob = PasswordResetJob | AlarmMailJob | AlarmDigestJob;

/** A queue of jobs worked off the request path (SQS in AWS; the adapter is adapters/job-queue.ts). */
export interface JobQueue<Job> {
  send(job: Job): Promise<void>;
}

/** The outcome of verifying an access token (signature, issuer, expiry, token use, client). */
export type TokenCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; expired: boolean };

/** Verifies the user pool's access tokens (adapters/access-token.ts). */
export interface AccessTokenVerifier {
  verify(token: string): Promise<TokenCheck>;
}
