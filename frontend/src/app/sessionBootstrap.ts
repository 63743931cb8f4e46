import { ApiError, refreshSession } from '../shared/api/client';
import { endSessionHint, hasSessionHint } from '../shared/session/sessionHint';
import { clearSession } from '../shared/session/sessionStore';

let started = false;

/**
 * At app load the httpOnly refresh cookie is exchanged for a session, exactly once, when the session
 * hint says there is one; until it answers the session is 'pending' and the route guards wait.
 * Without the hint the user is signed out at once (the sign-in page, no refresh that must fail).
 */
export function bootstrapSession(): void {
  if (started) return;
  started = true;
  if (!hasSessionHint()) return clearSession();
  refreshSession().catch((error: unknown) => {
    // Refused: the session is over. Unreachable (offline, a server fault): it may not be, and the
    // next load tries again.
    if (error instanceof ApiError && error.isClientError) endSessionHint();
    clearSession();
  });
}
