import { apiCalls } from '@argentum/contracts/api';
import { REALTIME_MAX_ORGS, THEME_INVALID_TEXT, THEME_SAVED_TEXT } from '@argentum/contracts';
import { changeUserName, setTheme } from '../domain/auth/account';
import { type InvitationPorts, lookUpToken, registerInvitedUser } from '../domain/auth/invitations';
import { requestResetMail } from '../domain/auth/mail-jobs';
import {
  PASSWORD_CHANGED,
  PASSWORD_RESET_DONE,
  REGISTERED,
  RESET_MAIL_SENT,
  USERNAME_CHANGED,
} from '../domain/auth/texts';
import { changePassword, resetPassword } from '../domain/auth/passwords';
import { refreshSession, signIn, signOut } from '../domain/auth/session';
import { mintConnectionToken, type TokenSigner } from '../domain/realtime/connection-token';
import { sessionEnded } from '../domain/errors';
import type { AccessTokenVerifier } from '../domain/auth/ports';
import {
  clearedSessionCookies,
  REFRESH_COOKIE,
  sessionCookies,
  type RefreshCookieSettings,
} from '../http/cookies';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'auth';
/** What the accounts' handlers need; the auth Lambda (lambda/api-auth.ts) wires them. */
export type AuthRoutePorts = RoutePorts &
  InvitationPorts & {
    accessTokens: AccessTokenVerifier;
    signer: TokenSigner;
    cookies: RefreshCookieSettings;
  };
const route = routesFor<AuthRoutePorts>();

export const authRoutes = [
  route({
    call: apiCalls.login,
    domain,
    access: 'public',
    summary:
      'Sign in with e-mail and password; sets the refresh cookie and returns an access token. ' +
      '429 with Retry-After after too many failures for the account or from the address.',
    handler: async ({ body: { user }, sourceIp, ports }) => {
      const { session, refreshToken } = await signIn(ports, {
        email: user.email,
        password: user.password,
        address: sourceIp,
      });
      return { body: session, cookies: sessionCookies(refreshToken, ports.cookies) };
    },
  }),
  route({
    call: apiCalls.refreshToken,
    domain,
    access: 'public',
    summary: 'Issues a new access token from the httpOnly refresh cookie.',
    handler: async ({ cookies, ports }) => ({ body: await refreshSession(ports, cookies[REFRESH_COOKIE]) }),
  }),
  route({
    call: apiCalls.userLogout,
    domain,
    access: 'public',
    summary:
      'Signs the user out everywhere: ends all their sessions (access tokens refused from the next ' +
      'request on, refresh tokens revoked, real-time connections closed) and clears the cookie. The ' +
      'user is named by the refresh cookie or, without one, by the Bearer access token.',
    handler: async ({ cookies, bearerToken, ports }) => {
      const check = bearerToken ? await ports.accessTokens.verify(bearerToken) : undefined;
      const userId = check?.ok && typeof check.claims.sub === 'string' ? check.claims.sub : undefined;
      await signOut(ports, { refreshToken: cookies[REFRESH_COOKIE], userId });
      return { body: { message: 'Signed out.' }, cookies: clearedSessionCookies(ports.cookies) };
    },
  }),
  route({
    call: apiCalls.realtimeToken,
    domain,
    access: { minRole: 0 },
    summary:
      'Mints the signed token a browser opens the real-time channel with (MQTT user name ' +
      '`{base}?x-amz-customauthorizer-signature={signature}&token={token}`): bound to its client id ' +
      '(`web-<uuid>`, else 400), its session and the organizations it watches (at most ' +
      `${REALTIME_MAX_ORGS}; those not the caller's left out, the answer's \`orgIds\` naming the rest, 404 when none is left; none named: the first ones), valid 24 h.`,
    handler: async ({ body: request, user, bearerToken, ports }) => {
      // The session the token belongs to: signing out or a password reset ends the connection too.
      const check = bearerToken ? await ports.accessTokens.verify(bearerToken) : undefined;
      const authTime = check?.ok ? Number(check.claims.auth_time) : NaN;
      if (!Number.isInteger(authTime) || authTime < 0) throw sessionEnded();
      return { body: await mintConnectionToken(ports, { user, authTime }, request) };
    },
  }),
  route({
    call: apiCalls.registerUser,
    domain,
    access: 'public',
    summary:
      'Registers an invited user (read-only, in the invited organizations) and consumes the invite token. ' +
      'An e-mail that already has an account accepts the invitation with its current password ' +
      '(throttled like a sign-in: 429 with Retry-After).',
    handler: async ({ body: { user }, sourceIp, ports }) => {
      await registerInvitedUser(ports, { ...user, address: sourceIp });
      return { body: { message: REGISTERED } };
    },
  }),
  route({
    call: apiCalls.confirmUser,
    domain,
    access: 'public',
    summary:
      'Looks up an invite or reset token: email, organizationId, organizationName; 410 when expired or used.',
    handler: async ({ body: { userToken }, ports }) => ({ body: await lookUpToken(ports, userToken) }),
  }),
  route({
    call: apiCalls.changepassword,
    domain,
    access: { minRole: 0 },
    summary:
      "Changes the signed-in user's password; the old password is verified. Every other session of " +
      'the user ends; this one continues with the new session the answer carries (`accessToken`, ' +
      '`user` and a new refresh cookie). The old-password check is throttled like a sign-in (429).',
    handler: async ({ body, user, sourceIp, ports }) => {
      const { session, refreshToken } = await changePassword(ports, user, {
        oldPassword: body.oldpassword,
        newPassword: body.password,
        address: sourceIp,
      });
      return {
        body: { message: PASSWORD_CHANGED, ...session },
        cookies: sessionCookies(refreshToken, ports.cookies),
      };
    },
  }),
  route({
    call: apiCalls.changeUsername,
    domain,
    access: { minRole: 0 },
    summary: "Changes the signed-in user's name.",
    handler: async ({ body, user, ports }) => {
      const changed = await changeUserName(ports, user, body.username);
      return { body: { message: USERNAME_CHANGED, data: { userName: changed.userName } } };
    },
  }),
  route({
    call: apiCalls.setTheme,
    domain,
    access: { minRole: 0 },
    summary:
      "Sets the signed-in user's colour theme (`theme`: 'light', 'dark' or 'system', which follows the " +
      "device's preference); it applies to the user only and returns with the session user (`user.theme` " +
      'of login and refresh; light until chosen). Answers `{ message, data: { theme } }`; any other value ' +
      `answers 400 "${THEME_INVALID_TEXT}"`,
    handler: async ({ body: { theme }, user, ports }) => {
      const saved = await setTheme(ports, user, theme);
      return { body: { message: THEME_SAVED_TEXT, data: { theme: saved.theme ?? theme } } };
    },
  }),
  route({
    call: apiCalls.forgetPasswordEmail,
    domain,
    access: 'public',
    summary:
      'Mails a single-use password reset link (valid 1 hour) to a platform user. Answers 200 whether or not the e-mail belongs to a user ' +
      '(the mail is sent off the request path); 429 with Retry-After after too many requests for the e-mail or from the address.',
    handler: async ({ body: { user }, sourceIp, ports }) => {
      await requestResetMail(ports, { email: user.email, address: sourceIp });
      return { body: { message: RESET_MAIL_SENT } };
    },
  }),
  route({
    call: apiCalls.setForgetPassword,
    domain,
    access: 'public',
    summary: 'Sets a new password with a reset token and consumes the token; 410 when expired or used.',
    handler: async ({ body, ports }) => {
      await resetPassword(ports, {
        token: body.user.token,
        password: body.user.password,
        confirmation: body.confirmNewPass,
      });
      return { body: { message: PASSWORD_RESET_DONE } };
    },
  }),
];
