import { refreshSession } from '../shared/api/client';
import { clearSession } from '../shared/session/sessionStore';

let started = false;

/**
 * At app load the httpOnly refresh cookie (if any) is exchanged for a session, exactly once.
 * Until it answers the session is 'pending' and the route guards wait.
 */
export function bootstrapSession(): void {
  if (started) return;
  started = true;
  refreshSession().catch(() => clearSession());
}
