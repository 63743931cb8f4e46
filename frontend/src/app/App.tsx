import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ConnectivityBanner } from '../shared/ui/ConnectivityBanner';
import { Toasts } from '../shared/ui/Toasts';
import { queryClient } from './queryClient';
import { router } from './router';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ConnectivityBanner />
      <Toasts />
    </QueryClientProvider>
  );
}
