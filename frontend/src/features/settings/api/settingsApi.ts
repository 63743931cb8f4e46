import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api/client';
import { normalizeEmail } from '@argentum/events/contracts';
import type { AccessChange, Invitation, ManagedUser } from './types';

/** The only place the settings' query keys are written. */
export const settingsQueries = {
  all: () => ['settings'] as const,
  users: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), 'users'] as const,
      queryFn: async ({ signal }) =>
        (await apiPost<{ users?: ManagedUser[] }>('/api/fetchUsers', {}, { signal })).users ?? [],
    }),
};

// The specification gives these calls their own failure texts, shown by the components.
const QUIET = { silent: true } as const;

const refreshUsers = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: settingsQueries.users().queryKey });

export const settingsMutations = {
  invite: (queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: ({ email, organizations }: Invitation) =>
        apiPost<unknown>(
          '/api/dashboard/sendInviteUserEmail',
          {
            email: normalizeEmail(email),
            organizationId: organizations.map((o) => o.orgID),
            organizationName: organizations.map((o) => o.orgName),
          },
          QUIET,
        ),
      onSettled: () => refreshUsers(queryClient),
    }),
  setAccess: (queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (change: AccessChange) => apiPost<unknown>('/api/setUserAccess', change, QUIET),
      onSettled: () => refreshUsers(queryClient),
    }),
  deleteUsers: (queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (selectedRowDataIds: string[]) =>
        apiPost<unknown>('/api/deleteUser', { selectedRowDataIds }, QUIET),
      onSettled: () => refreshUsers(queryClient),
    }),
  uploadLogo: () =>
    mutationOptions({
      mutationFn: ({ file, org }: { file: string; org: string }) =>
        apiPost<unknown>('/api/dashboard/setOrgLogo', { file, org }, QUIET),
    }),
};
