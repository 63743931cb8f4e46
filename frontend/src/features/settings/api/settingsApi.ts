import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../shared/api/client';
import { postFile } from '../../../shared/api/upload';
import { normalizeEmail, type OrganizationAlarmSettings } from '@argentum/contracts';
import type { AccessChange, Invitation } from './types';

/** The only place the settings' query keys are written. */
export const settingsQueries = {
  all: () => ['settings'] as const,
  users: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), 'users'] as const,
      queryFn: async ({ signal }) => (await callApi('fetchUsers', {}, { signal })).users ?? [],
    }),
  /** An organization's offline-alarm settings (admins). */
  alarms: (orgId: string) =>
    queryOptions({
      queryKey: [...settingsQueries.all(), 'alarms', orgId] as const,
      queryFn: ({ signal }) => callApi('getAlarmSettings', { orgID: orgId }, { signal }),
    }),
};

interface LogoUpload {
  file: File;
  org: string;
  onProgress?: (sent: number) => void;
}

// The specification gives these calls their own failure texts, shown by the components.
const QUIET = { silent: true } as const;

const refreshUsers = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: settingsQueries.users().queryKey });

export const settingsMutations = {
  alarms: (queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (settings: OrganizationAlarmSettings & { orgID: string }) =>
        callApi('setAlarmSettings', settings, QUIET),
      onSuccess: (_answer, { orgID }) =>
        queryClient.invalidateQueries({ queryKey: settingsQueries.alarms(orgID).queryKey }),
    }),
  invite: (queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: ({ email, organizations }: Invitation) =>
        callApi(
          'sendInviteUserEmail',
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
      mutationFn: (change: AccessChange) => callApi('setUserAccess', change, QUIET),
      onSettled: () => refreshUsers(queryClient),
    }),
  deleteUsers: (queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (selectedRowDataIds: string[]) => callApi('deleteUser', { selectedRowDataIds }, QUIET),
      onSettled: () => refreshUsers(queryClient),
    }),
  /**
   * A logo goes straight to storage: the API presigns a form for the file's type and size, the file is
   * posted with it (progress reported from 0 to 1), and the API then checks and commits it.
   */
  uploadLogo: () =>
    mutationOptions({
      mutationFn: async ({ file, org, onProgress }: LogoUpload) => {
        const form = await callApi(
          'createOrgLogoUpload',
          { org, contentType: file.type, size: file.size },
          QUIET,
        );
        await postFile(form, file, onProgress);
        return callApi('setOrgLogo', { file: form.key, org }, QUIET);
      },
    }),
};
