import { queryOptions } from '@tanstack/react-query';
import type { ApiAnswer } from '@argentum/contracts/api';
import { callApi } from '../../../shared/api/client';

/**
 * A logo: `data` is a short-lived (15 minutes) presigned URL of the stored image, usable as an image
 * source; null when the organization has none.
 */
type OrgLogo = ApiAnswer<'getOrgLogoFromS3'>;

function fetchOrgLogo(orgId: string, signal: AbortSignal): Promise<OrgLogo> {
  return callApi('getOrgLogoFromS3', { orgID: orgId }, { signal, silent: true });
}

/** The only place the logo's query keys are written. */
export const orgLogoQueries = {
  all: () => ['org-logo'] as const,
  logo: (orgId: string) =>
    queryOptions({
      queryKey: [...orgLogoQueries.all(), orgId] as const,
      queryFn: ({ signal }) => fetchOrgLogo(orgId, signal),
      // Logos change rarely and an upload in this app invalidates the query; a remount after this
      // fetches a fresh URL while the one shown is still valid.
      staleTime: 5 * 60_000,
    }),
};
