import { createBrowserRouter } from 'react-router';
import { LoginPage, RegisterPage, ResetPasswordPage } from '../features/auth';
import { FullPageLoader } from '../shared/ui/FullPageLoader';
import { DashboardPage } from './DashboardPage';
import { RequireSession, SignedOutOnly, UnknownRoute } from './guards';

export const router = createBrowserRouter([
  {
    path: '/',
    element: (
      <SignedOutOnly>
        <LoginPage />
      </SignedOutOnly>
    ),
  },
  {
    path: '/login',
    element: (
      <SignedOutOnly>
        <LoginPage />
      </SignedOutOnly>
    ),
  },
  {
    path: '/home',
    element: (
      <RequireSession>
        <DashboardPage />
      </RequireSession>
    ),
  },
  // Invite and reset links: public, and a signed-in user may open them too.
  { path: '/register/:token', element: <RegisterPage /> },
  { path: '/forgetPassword/:token', element: <ResetPasswordPage /> },
  {
    // Signed in or not. Loaded on demand: it is not part of the initial bundle.
    path: '/api-docs',
    lazy: async () => {
      const { ApiDocsPage } = await import('../features/api-docs');
      return { Component: ApiDocsPage };
    },
    hydrateFallbackElement: <FullPageLoader />,
  },
  { path: '*', element: <UnknownRoute /> },
]);
