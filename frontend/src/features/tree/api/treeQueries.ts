import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/client';
import { LIVE_REREAD_MS } from '../../../shared/realtime/liveReread';
import type { FloorLocation, Organization } from './types';

async function fetchOrganizations(signal: AbortSignal): Promise<Organization[]> {
  const response = await callApi('getUsersOrganisations', {}, { signal });
  // Organizations without buildings and buildings without floors may omit the arrays.
  return (response.organizations ?? []).map((organization) => ({
    ...organization,
    buildData: (organization.buildData ?? []).map((building) => ({
      ...building,
      floors: building.floors ?? [],
    })),
  }));
}

/** The only place the tree's query keys are written. */
export const treeQueries = {
  all: () => ['tree'] as const,
  organizations: () =>
    queryOptions({
      queryKey: [...treeQueries.all(), 'organizations'] as const,
      queryFn: ({ signal }) => fetchOrganizations(signal),
      staleTime: 60_000,
      // Nothing pushes what other admins change in the tree: a page left open reads it again.
      refetchInterval: LIVE_REREAD_MS,
    }),
};

export function findFloor(organizations: readonly Organization[], floorId: string): FloorLocation | null {
  for (const organization of organizations) {
    for (const building of organization.buildData) {
      const floor = building.floors.find((candidate) => candidate._id === floorId);
      if (floor) return { organization, building, floor };
    }
  }
  return null;
}
