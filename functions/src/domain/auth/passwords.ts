import { randomUUID } from 'node:crypto';
import { validationError } from '../errors';
import { type AuthUser, normalizeEmail } from '../users/user';
import { linkExpired } from './invitations';
import { passwordResetMail } from './mail-templates';
import { OLD_PASSWORD_WRONG, PASSWORDS_DONT_MATCH, RESET_LINK_EXPIRED } from './texts';
import { assertAcceptablePassword, withPasswordPolicy } from './password-policy';
import type { AccountPorts } from './ports';
import { endAllSessions, type StartedSession, startSession } from './session';
import { throttledPasswordVerify } from './throttle';
import { epochSeconds, hashToken, newToken, RESET_VALIDITY_SECONDS } from './tokens';

/**
 * Mails a single-use reset link (valid 1 hour) to a platform user; a newer link supersedes the
 * older ones. The caller answers the same whether or not the e-mail belongs to anybody, so the
 * call cannot be used to discover accounts.
 */
export async function requestPasswordReset(
  deps: Pick<AccountPorts, 'users' | 'tokens' | 'mailer' | 'clock' | 'settings'>,
  emailInput: string,
): Promise<void> {
  const email = normalizeEmail(emailInput);
  const user = await deps.users.findByEmail(email);
  if (!user) return;
  const now = deps.clock.now();
  const token = newToken();
  await deps.tokens.put({
    tokenHash: hashToken(token),
    kind: 'reset',
    email: user.email,
    orgIds: [],
    orgNames: [],
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + RESET_VALIDITY_SECONDS,
  });
  await deps.mailer.send(
    passwordResetMail({
      to: user.email,
      link: `${deps.settings.appOrigin}/forgetPassword/${encodeURIComponent(token)}`,
      validMinutes: RESET_VALIDITY_SECONDS / 60,
    }),
  );
}

/** Sets a new password with a reset token, consuming it (atomically: a used token is refused). */
export async function resetPassword(
  deps: AccountPorts,
  input: { token: string; password: string; confirmation: string },
): Promise<void> {
  if (input.password !== input.confirmation) throw validationError(PASSWORDS_DONT_MATCH);
  await assertAcceptablePassword(deps, input.password);
  const tokenHash = hashToken(input.token);
  const claimId = randomUUID();
  const claimed = await deps.tokens.claim(tokenHash, 'reset', claimId, deps.clock.now());
  if (!claimed) throw linkExpired(RESET_LINK_EXPIRED);
  // A user deleted since the link was sent keeps the token consumed: it can never be used again.
  const user = await deps.users.findByEmail(claimed.email);
  if (!user) throw linkExpired(RESET_LINK_EXPIRED);
  try {
    await withPasswordPolicy(() => deps.identity.setPassword(user.email, input.password));
  } catch (error) {
    await deps.tokens.release(tokenHash, claimId);
    throw error;
  }
  // Whoever knew the old password is signed out everywhere.
  await endAllSessions(deps, user.userId);
}

/**
 * The signed-in user changes their password; the old one is verified against the identity store.
 * Every other session of the user ends; this one goes on with a fresh session (new tokens), begun
 * after the others ended. The old-password check is throttled like a sign-in from `address`.
 */
export async function changePassword(
  deps: AccountPorts,
  user: AuthUser,
  passwords: { oldPassword: string; newPassword: string; address: string },
): Promise<StartedSession> {
  const { oldPassword, newPassword, address } = passwords;
  const right = await throttledPasswordVerify(deps, { email: user.email, address }, () =>
    deps.identity.verifyPassword(user.email, oldPassword),
  );
  if (!right) throw validationError(OLD_PASSWORD_WRONG);
  await assertAcceptablePassword(deps, newPassword);
  await withPasswordPolicy(() => deps.identity.setPassword(user.email, newPassword));
  await endAllSessions(deps, user.userId);
  return startSession(deps, user.email, newPassword);
}
