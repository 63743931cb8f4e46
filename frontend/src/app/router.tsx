import { createBrowserRouter } from 'react-router';
import { LoginPage } from '../features/auth';
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
