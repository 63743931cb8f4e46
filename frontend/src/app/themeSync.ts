import { getSession, subscribeSession } from '../shared/session/sessionStore';
import { reconcileTheme, watchSystemTheme } from '../shared/theme/theme';

/**
 * Applies the signed-in user's theme whenever a session begins or is renewed (sign-in, the refresh at
 * load, another user signing in on this device) and follows the device's light/dark switch.
 * Signing out keeps the theme in effect, so the sign-in page stays in the last user's theme.
 */
export function startThemeSync(): void {
  watchSystemTheme();
  const sync = () => {
    const session = getSession();
    if (session.status === 'signedIn') reconcileTheme(session.user);
  };
  subscribeSession(sync);
  sync();
}
