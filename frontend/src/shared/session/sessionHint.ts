import { SESSION_HINT_COOKIE } from '@argentum/contracts';

/**
 * What this browser remembers of its session across a page load: the readable cookie the API sets
 * beside the httpOnly refresh cookie (contracts: SESSION_HINT_COOKIE), whether there is a session to
 * restore without asking the API; and, for the sign-in page, that a session ended without the user
 * signing out.
 */
export const hasSessionHint = (): boolean =>
  document.cookie.split(/;\s*/).some((cookie) => cookie.startsWith(`${SESSION_HINT_COOKIE}=`));

const ENDED_KEY = 'argentum.sessionEnded';

/**
 * The session is over though the user did not sign out (signed out elsewhere, a password changed,
 * its refresh token expired): the hint goes, so the next load asks for no refresh, and the sign-in
 * page says why it is shown.
 */
export function endSessionHint(): void {
  const secure = window.isSecureContext ? '; Secure' : '';
  document.cookie = `${SESSION_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict${secure}`;
  try {
    sessionStorage.setItem(ENDED_KEY, '1');
  } catch {
    // Storage refused (a private mode): the sign-in page just says nothing.
  }
}

/**
 * Whether the session ended by itself, and the user has not tried to sign in since. (Read, not taken:
 * the page that ends the session may draw the sign-in page once before its reload draws it again.)
 */
export function sessionEndedByItself(): boolean {
  try {
    return sessionStorage.getItem(ENDED_KEY) !== null;
  } catch {
    return false;
  }
}

/** The user signs in again: the sign-in page has nothing more to explain. */
export function forgetSessionEnded(): void {
  try {
    sessionStorage.removeItem(ENDED_KEY);
  } catch {
    // Nothing was stored.
  }
}
