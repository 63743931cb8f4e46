import { createBrowserRouter } from 'react-router';
import { LoginPage, RegisterPage, ResetPasswordPage } from '../features/auth';
import { SENSOR_DETAIL_ROUTE } from '../features/sensor-detail/links';
import { floorHref } from '../features/tree';
import { FullPageLoader } from '../shared/ui/FullPageLoader';
import { AppTopBar } from './AppTopBar';
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
    // A sensor's history, compare and export. Loaded on demand: nivo is not part of the initial bundle.
    path: SENSOR_DETAIL_ROUTE,
    lazy: async () => {
      const { SensorDetailPage } = await import('../features/sensor-detail');
      return {
        Component: () => (
          <RequireSession>
            <AppTopBar />
            <SensorDetailPage floorHref={floorHref} />
          </RequireSession>
        ),
      };
    },
    hydrateFallbackElement: <FullPageLoader />,
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
