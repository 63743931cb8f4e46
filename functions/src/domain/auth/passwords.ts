import { randomUUID } from 'node:crypto';
import { identity } from '../../adapters/identity';
import { mail } from '../../adapters/mail';
import { config } from '../../config';
import { claimAccountToken, putAccountToken, releaseAccountToken } from '../../stores/account-tokens';
import { findUserByEmail } from '../../stores/users';
import { validationError } from '../errors';
import { type AuthUser, normalizeEmail } from '../users/user';
import { linkExpired } from './invitations';
import { passwordResetMail } from './mail-templates';
import { OLD_PASSWORD_WRONG, PASSWORDS_DONT_MATCH, RESET_LINK_EXPIRED } from './messages';
import { assertAcceptablePassword, withPasswordPolicy } from './password-policy';
import { endAllSessions } from './session';
import { epochSeconds, hashToken, newToken, RESET_VALIDITY_SECONDS } from './tokens';

/**
 * Mails a single-use reset link (valid 1 hour) to a platform user. The caller answers the same
 * whether or not the e-mail belongs to anybody, so the call cannot be used to discover accounts.
 */
export async function requestPasswordReset(emailInput: string, now = new Date()): Promise<void> {
  const email = normalizeEmail(emailInput);
  const user = await findUserByEmail(email);
  if (!user) return;
  const token = newToken();
  await putAccountToken({
    tokenHash: hashToken(token),
    kind: 'reset',
    email: user.email,
    orgIds: [],
    orgNames: [],
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + RESET_VALIDITY_SECONDS,
  });
  await mail.send(
    passwordResetMail({
      to: user.email,
      link: `${config.appOrigin}/forgetPassword/${encodeURIComponent(token)}`,
      validMinutes: RESET_VALIDITY_SECONDS / 60,
    }),
  );
}

/** Sets a new password with a reset token, consuming it (atomically: a used token is refused). */
export async function resetPassword(
  input: { token: string; password: string; confirmation: string },
  now = new Date(),
): Promise<void> {
  if (input.password !== input.confirmation) throw validationError(PASSWORDS_DONT_MATCH);
  await assertAcceptablePassword(input.password);
  const tokenHash = hashToken(input.token);
  const claimId = randomUUID();
  const claimed = await claimAccountToken(tokenHash, 'reset', claimId, now);
  if (!claimed) throw linkExpired(RESET_LINK_EXPIRED);
  // A user deleted since the link was sent keeps the token consumed: it can never be used again.
  const user = await findUserByEmail(claimed.email);
  if (!user) throw linkExpired(RESET_LINK_EXPIRED);
  try {
    await withPasswordPolicy(() => identity.setPassword(user.email, input.password));
  } catch (error) {
    await releaseAccountToken(tokenHash, claimId);
    throw error;
  }
  // Whoever knew the old password is signed out everywhere.
  await endAllSessions(user.userId, now);
}

/** The signed-in user changes their password; the old one is verified against the identity store. */
export async function changePassword(
  user: AuthUser,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  if (!(await identity.verifyPassword(user.email, oldPassword))) throw validationError(OLD_PASSWORD_WRONG);
  await assertAcceptablePassword(newPassword);
  await withPasswordPolicy(() => identity.setPassword(user.email, newPassword));
}
