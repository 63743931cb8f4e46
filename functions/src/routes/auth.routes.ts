import * as z from 'zod';
import {
  REALTIME_MAX_ORGS,
  REALTIME_TOKEN_PATH,
  THEME_INVALID_TEXT,
  THEME_PREFERENCES,
  THEME_SAVED_TEXT,
} from '@argentum/events/contracts';
import { changeUserName, setTheme } from '../domain/auth/account';
import { type InvitationPorts, lookUpToken, registerInvitedUser } from '../domain/auth/invitations';
import { requestResetMail } from '../domain/auth/mail-jobs';
import {
  EMAIL_INVALID,
  EMAIL_REQUIRED,
  PASSWORD_CHANGED,
  PASSWORD_EMPTY,
  PASSWORD_RESET_DONE,
  REGISTERED,
  RESET_MAIL_SENT,
  USERNAME_CHANGED,
  USERNAME_EMPTY,
} from '../domain/auth/texts';
import { changePassword, resetPassword } from '../domain/auth/passwords';
import { refreshSession, signIn, signOut } from '../domain/auth/session';
import { mintConnectionToken, type TokenSigner } from '../domain/realtime/connection-token';
import { sessionEnded } from '../domain/errors';
import type { AccessTokenVerifier } from '../domain/auth/ports';
import {
  clearedRefreshCookie,
  REFRESH_COOKIE,
  refreshCookie,
  type RefreshCookieSettings,
} from '../http/cookies';
import { body } from '../http/schemas';
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

/** Cognito accepts passwords of up to 256 characters. */
const password = z.string().min(1, PASSWORD_EMPTY).max(256);
/** Invite and reset tokens (43 characters of base64url; anything else is simply not found). */
const token = z.string().min(1).max(512);

export const authRoutes = [
  route({
    method: 'POST',
    path: '/api/login',
    domain,
    access: 'public',
    summary:
      'Sign in with e-mail and password; sets the refresh cookie and returns an access token. ' +
      '429 with Retry-After after too many failures for the account or from the address.',
    request: body({
      user: body({
        email: z.string().trim().min(1, 'Please Enter email.').max(254).email('Please Enter valid email.'),
        password: z.string().min(1, 'Password can not empty').max(256),
      }),
    }),
    handler: async ({ body: { user }, sourceIp, ports }) => {
      const { session, refreshToken } = await signIn(ports, {
        email: user.email,
        password: user.password,
        address: sourceIp,
      });
      return { body: session, cookies: [refreshCookie(refreshToken, ports.cookies)] };
    },
  }),
  route({
    method: 'POST',
    path: '/api/refreshToken',
    domain,
    access: 'public',
    summary: 'Issues a new access token from the httpOnly refresh cookie.',
    request: body({}),
    handler: async ({ cookies, ports }) => ({ body: await refreshSession(ports, cookies[REFRESH_COOKIE]) }),
  }),
  route({
    method: 'POST',
    path: '/api/userLogout',
    domain,
    access: 'public',
    summary:
      'Signs the user out everywhere: ends all their sessions (access tokens refused from the next ' +
      'request on, refresh tokens revoked, real-time connections closed) and clears the cookie. The ' +
      'user is named by the refresh cookie or, without one, by the Bearer access token.',
    request: body({ id: z.string().max(64).optional(), refreshToken: z.string().max(4096).optional() }),
    handler: async ({ cookies, bearerToken, ports }) => {
      const check = bearerToken ? await ports.accessTokens.verify(bearerToken) : undefined;
      const userId = check?.ok && typeof check.claims.sub === 'string' ? check.claims.sub : undefined;
      await signOut(ports, { refreshToken: cookies[REFRESH_COOKIE], userId });
      return { body: { message: 'Signed out.' }, cookies: [clearedRefreshCookie(ports.cookies)] };
    },
  }),
  route({
    method: 'POST',
    path: REALTIME_TOKEN_PATH,
    domain,
    access: { minRole: 0 },
    summary:
      'Mints the signed token a browser opens the real-time channel with (MQTT user name ' +
      '`{base}?x-amz-customauthorizer-signature={signature}&token={token}`): bound to its client id ' +
      '(`web-<uuid>`, else 400), its session and the organizations it watches (at most ' +
      `${REALTIME_MAX_ORGS}; one not the caller's: 404; none named: the first ones), valid 24 h.`,
    request: body({
      clientId: z.string().max(128),
      orgIds: z.array(z.string().min(1).max(64)).min(1).max(REALTIME_MAX_ORGS).optional(),
    }),
    handler: async ({ body: request, user, bearerToken, ports }) => {
      // The session the token belongs to: signing out or a password reset ends the connection too.
      const check = bearerToken ? await ports.accessTokens.verify(bearerToken) : undefined;
      const authTime = check?.ok ? Number(check.claims.auth_time) : NaN;
      if (!Number.isInteger(authTime) || authTime < 0) throw sessionEnded();
      return { body: await mintConnectionToken(ports, { user, authTime }, request) };
    },
  }),
  route({
    method: 'POST',
    path: '/api/registerUser',
    domain,
    access: 'public',
    summary:
      'Registers an invited user (read-only, in the invited organizations) and consumes the invite token. ' +
      'An e-mail that already has an account accepts the invitation with its current password ' +
      '(throttled like a sign-in: 429 with Retry-After).',
    request: body({
      user: body({
        userName: z.string().trim().min(1, USERNAME_EMPTY).max(64),
        password,
        email: z.string().trim().max(254),
        // Accepted for compatibility; the organizations always come from the invite token.
        orgIds: z.array(z.string().max(64)).max(200).optional(),
        organizationName: z.string().max(2000).optional(),
        token,
      }),
    }),
    handler: async ({ body: { user }, sourceIp, ports }) => {
      await registerInvitedUser(ports, { ...user, address: sourceIp });
      return { body: { message: REGISTERED } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/confirmUser',
    domain,
    access: 'public',
    summary:
      'Looks up an invite or reset token: email, organizationId, organizationName; 410 when expired or used.',
    request: body({ userToken: token }),
    handler: async ({ body: { userToken }, ports }) => ({ body: await lookUpToken(ports, userToken) }),
  }),
  route({
    method: 'POST',
    path: '/api/changepassword',
    domain,
    access: { minRole: 0 },
    summary:
      "Changes the signed-in user's password; the old password is verified. Every other session of " +
      'the user ends; this one continues with the new session the answer carries (`accessToken`, ' +
      '`user` and a new refresh cookie). The old-password check is throttled like a sign-in (429).',
    request: body({ oldpassword: password, password }),
    handler: async ({ body, user, sourceIp, ports }) => {
      const { session, refreshToken } = await changePassword(ports, user, {
        oldPassword: body.oldpassword,
        newPassword: body.password,
        address: sourceIp,
      });
      return {
        body: { message: PASSWORD_CHANGED, ...session },
        cookies: [refreshCookie(refreshToken, ports.cookies)],
      };
    },
  }),
  route({
    method: 'POST',
    path: '/api/changeUsername',
    domain,
    access: { minRole: 0 },
    summary: "Changes the signed-in user's name.",
    request: body({ username: z.string().trim().min(1, USERNAME_EMPTY).max(64) }),
    handler: async ({ body, user, ports }) => {
      const changed = await changeUserName(ports, user, body.username);
      return { body: { message: USERNAME_CHANGED, data: { userName: changed.userName } } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/setTheme',
    domain,
    access: { minRole: 0 },
    summary:
      "Sets the signed-in user's colour theme (`theme`: 'light', 'dark' or 'system', which follows the " +
      "device's preference); it applies to the user only and returns with the session user (`user.theme` " +
      'of login and refresh; light until chosen). Answers `{ message, data: { theme } }`; any other value ' +
      `answers 400 "${THEME_INVALID_TEXT}"`,
    request: body({
      // A missing theme is named like any missing field.
      theme: z.enum(THEME_PREFERENCES, {
        error: (issue) => (issue.input === undefined ? 'theme is required.' : THEME_INVALID_TEXT),
      }),
    }),
    handler: async ({ body: { theme }, user, ports }) => {
      const saved = await setTheme(ports, user, theme);
      return { body: { message: THEME_SAVED_TEXT, data: { theme: saved.theme } } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/forgetPasswordEmail',
    domain,
    access: 'public',
    summary:
      'Mails a single-use password reset link (valid 1 hour) to a platform user. Answers 200 whether or not the e-mail belongs to a user ' +
      '(the mail is sent off the request path); 429 with Retry-After after too many requests for the e-mail or from the address.',
    request: body({
      user: body({
        email: z.string().trim().min(1, EMAIL_REQUIRED).max(254).email(EMAIL_INVALID),
      }),
    }),
    handler: async ({ body: { user }, sourceIp, ports }) => {
      await requestResetMail(ports, { email: user.email, address: sourceIp });
      return { body: { message: RESET_MAIL_SENT } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/setForgetPassword',
    domain,
    access: 'public',
    summary: 'Sets a new password with a reset token and consumes the token; 410 when expired or used.',
    request: body({
      user: body({ token, password }),
      confirmNewPass: z.string().max(256),
    }),
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
