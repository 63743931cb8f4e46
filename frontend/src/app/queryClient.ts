import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../shared/api/client';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A client error (4xx) will not change on retry; a network blip or a 5xx may.
      retry: (failureCount, error) => !(error instanceof ApiError && error.isClientError) && failureCount < 1,
    },
    mutations: { retry: false },
  },
});
