import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../shared/session/sessionStore';
import { FullPageLoader } from '../shared/ui/FullPageLoader';

const HOME = '/home';

/** After signing in, continue to the protected page the user was sent away from (a shared link). */
function continueTo(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string') {
    if (state.from === HOME || state.from.startsWith(`${HOME}?`) || state.from.startsWith(`${HOME}/`))
      return state.from;
  }
  return HOME;
}

export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'pending') return <FullPageLoader />;
  if (session.status === 'signedOut') {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return children;
}

/** The sign-in screen: a signed-in user (at load or right after signing in) goes on to the dashboard. */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'pending') return <FullPageLoader />;
  if (session.status === 'signedIn') return <Navigate to={continueTo(location.state)} replace />;
  return children;
}

export function UnknownRoute() {
  const session = useSession();
  if (session.status === 'pending') return <FullPageLoader />;
  return <Navigate to={session.status === 'signedIn' ? HOME : '/login'} replace />;
}
