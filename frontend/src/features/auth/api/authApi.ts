import { useMutation } from '@tanstack/react-query';
import { ApiError, callApi } from '../../../shared/api/client';
import { normalizeEmail } from '@argentum/contracts';
import { establishSession, parseAuthResponse, signingOut } from '../../../shared/session/sessionStore';

export interface Credentials {
  email: string;
  password: string;
}

async function login({ email, password }: Credentials) {
  const body = await callApi('login', { user: { email: normalizeEmail(email), password } });
  const auth = parseAuthResponse(body);
  // The specification treats a falsy answer like wrong credentials.
  if (!auth) throw new ApiError(401, 'Sign-in answer without a session.', body);
  establishSession(auth);
  return auth.user;
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}

/**
 * Signs the user out everywhere and leaves for the sign-in page once answered (the answer clears the
 * cookies). The sign-out closes this page's real-time connection and refuses its tokens: whatever is
 * refused meanwhile (the channel's reconnect, a refetch) is its doing, not a session that ended by
 * itself (signingOut). A sign-out refused as expired leaves too.
 */
export async function logout(userId: string): Promise<void> {
  signingOut();
  try {
    await callApi('userLogout', { id: userId }, { background: true });
  } finally {
    // A full reload drops the session, every cached query and all in-memory state of the previous
    // user. (Clearing the session first would also send the router to /login, a second navigation
    // racing this one.)
    window.location.assign('/login');
  }
}

export function useLogoutMutation() {
  return useMutation({ mutationFn: logout });
}
