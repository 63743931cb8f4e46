import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../shared/api/client';
import type { OpenApiDocument } from './types';

/** The only place the API documentation's query keys are written. */
export const apiDocsQueries = {
  all: () => ['api-docs'] as const,
  document: () =>
    queryOptions({
      queryKey: [...apiDocsQueries.all(), 'openapi'] as const,
      queryFn: ({ signal }) => apiGet<OpenApiDocument>('/openapi.json', { signal }),
      staleTime: 5 * 60_000,
    }),
};
