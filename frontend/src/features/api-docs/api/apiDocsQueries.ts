import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../../shared/api/client';
import type { OpenApiDocument } from './types';

/** The only place the API documentation's query keys are written. */
export const apiDocsQueries = {
  all: () => ['api-docs'] as const,
  document: () =>
    queryOptions({
      queryKey: [...apiDocsQueries.all(), 'openapi'] as const,
      queryFn: ({ signal }) => getJson<OpenApiDocument>('/openapi.json', { signal }),
      staleTime: 5 * 60_000,
    }),
};
