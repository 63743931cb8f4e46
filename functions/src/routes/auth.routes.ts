import * as z from 'zod';
import { clearedRefreshCookie, refreshSession, signIn, signOut } from '../domain/auth/session';
import { REFRESH_COOKIE } from '../http/cookies';
import { body, notAvailableYet } from '../http/schemas';
import { route } from '../http/types';

const domain = 'auth';

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
    summary: 'Signs out: revokes the refresh token and clears the cookie.',
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
    summary: 'Registers an invited user.',
    request: body({
      user: body({
        userName: z.string().max(64),
        password: z.string().max(256),
        email: z.string().max(254),
        orgIds: z.array(z.string().max(64)).max(200).optional(),
        organizationName: z.string().max(200).optional(),
        token: z.string().max(512).optional(),
      }),
    }),
    handler: notAvailableYet('Registration'),
  }),
  route({
    method: 'POST',
    path: '/api/confirmUser',
    domain,
    access: 'public',
    summary: 'Looks up an invite or reset token.',
    request: body({ userToken: z.string().min(1).max(512) }),
    handler: notAvailableYet('Confirming a user'),
  }),
  route({
    method: 'POST',
    path: '/api/changepassword',
    domain,
    access: { minRole: 0 },
    summary: "Changes the signed-in user's password.",
    request: body({ oldpassword: z.string().max(256), password: z.string().max(256) }),
    handler: notAvailableYet('Changing the password'),
  }),
  route({
    method: 'POST',
    path: '/api/changeUsername',
    domain,
    access: { minRole: 0 },
    summary: "Changes the signed-in user's name.",
    request: body({ username: z.string().max(64) }),
    handler: notAvailableYet('Changing the user name'),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/forgetPasswordEmail',
    domain,
    access: 'public',
    summary: 'Sends a password reset link.',
    request: body({ user: body({ email: z.string().max(254) }) }),
    handler: notAvailableYet('Password reset'),
  }),
  route({
    method: 'POST',
    path: '/api/setForgetPassword',
    domain,
    access: 'public',
    summary: 'Sets a new password with a reset token.',
    request: body({
      user: body({ token: z.string().max(512).optional(), password: z.string().max(256) }),
      confirmNewPass: z.string().max(256),
    }),
    handler: notAvailableYet('Password reset'),
  }),
];
