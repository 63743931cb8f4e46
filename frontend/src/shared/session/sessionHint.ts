import { SESSION_HINT_COOKIE } from '@argentum/contracts';

/**
 * The readable cookie the API sets beside the httpOnly refresh cookie (contracts: SESSION_HINT_COOKIE):
 * whether this browser has a session to restore, without asking the API.
 */
export const hasSessionHint = (): boolean =>
  document.cookie.split(/;\s*/).some((cookie) => cookie.startsWith(`${SESSION_HINT_COOKIE}=`));

/** Forgets the hint once the session is known to be over, so the next load does not try it again. */
export function forgetSessionHint(): void {
  const secure = window.isSecureContext ? '; Secure' : '';
  document.cookie = `${SESSION_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict${secure}`;
}
