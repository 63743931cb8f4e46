import * as z from 'zod';
import { changeUserName } from '../domain/auth/account';
import { lookUpToken, registerInvitedUser } from '../domain/auth/invitations';
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
} from '../domain/auth/messages';
import { changePassword, requestPasswordReset, resetPassword } from '../domain/auth/passwords';
import { clearedRefreshCookie, refreshSession, signIn, signOut } from '../domain/auth/session';
import { REFRESH_COOKIE } from '../http/cookies';
import { body } from '../http/schemas';
import { route } from '../http/types';

const domain = 'auth';

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
    summary: 'Sign in with e-mail and password; sets the refresh cookie and returns an access token.',
    request: body({
      user: body({
        email: z.string().trim().min(1, 'Please Enter email.').max(254).email('Please Enter valid email.'),
        password: z.string().min(1, 'Password can not empty').max(256),
      }),
    }),
    handler: async ({ body: { user } }) => {
      const { session, cookie } = await signIn(user.email, user.password);
      return { body: session, cookies: [cookie] };
    },
  }),
  route({
    method: 'POST',
    path: '/api/refreshToken',
    domain,
    access: 'public',
    summary: 'Issues a new access token from the httpOnly refresh cookie.',
    request: body({}),
    handler: async ({ cookies }) => ({ body: await refreshSession(cookies[REFRESH_COOKIE]) }),
  }),
  route({
    method: 'POST',
    path: '/api/userLogout',
    domain,
    access: 'public',
    summary:
      'Signs the user out everywhere: ends all their sessions (refresh tokens revoked) and clears the cookie.',
    request: body({ id: z.string().max(64).optional(), refreshToken: z.string().max(4096).optional() }),
    handler: async ({ cookies }) => {
      await signOut(cookies[REFRESH_COOKIE]);
      return { body: { message: 'Signed out.' }, cookies: [clearedRefreshCookie()] };
    },
  }),
  route({
    method: 'POST',
    path: '/api/registerUser',
    domain,
    access: 'public',
    summary:
      'Registers an invited user (read-only, in the invited organizations) and consumes the invite token. ' +
      'An e-mail that already has an account accepts the invitation with its current password.',
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
    handler: async ({ body: { user } }) => {
      await registerInvitedUser(user);
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
    handler: async ({ body: { userToken } }) => ({ body: await lookUpToken(userToken) }),
  }),
  route({
    method: 'POST',
    path: '/api/changepassword',
    domain,
    access: { minRole: 0 },
    summary: "Changes the signed-in user's password; the old password is verified.",
    request: body({ oldpassword: password, password }),
    handler: async ({ body, user }) => {
      await changePassword(user, body.oldpassword, body.password);
      return { body: { message: PASSWORD_CHANGED } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/changeUsername',
    domain,
    access: { minRole: 0 },
    summary: "Changes the signed-in user's name.",
    request: body({ username: z.string().trim().min(1, USERNAME_EMPTY).max(64) }),
    handler: async ({ body, user }) => {
      const changed = await changeUserName(user, body.username);
      return { body: { message: USERNAME_CHANGED, data: { userName: changed.userName } } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/forgetPasswordEmail',
    domain,
    access: 'public',
    summary:
      'Mails a single-use password reset link (valid 1 hour) to a platform user. Answers 200 whether or not the e-mail belongs to a user.',
    request: body({
      user: body({
        email: z.string().trim().min(1, EMAIL_REQUIRED).max(254).email(EMAIL_INVALID),
      }),
    }),
    handler: async ({ body: { user } }) => {
      await requestPasswordReset(user.email);
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
    handler: async ({ body }) => {
      await resetPassword({
        token: body.user.token,
        password: body.user.password,
        confirmation: body.confirmNewPass,
      });
      return { body: { message: PASSWORD_RESET_DONE } };
    },
  }),
];
