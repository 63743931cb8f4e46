import { useMutation } from '@tanstack/react-query';
import { apiPost, refreshSession } from '../../../shared/api/client';

export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      apiPost<unknown>(
        '/api/changepassword',
        { oldpassword: oldPassword, password: newPassword },
        { silent: true },
      ),
  });
}

function userNameOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('data' in body)) return undefined;
  const data = body.data;
  if (typeof data !== 'object' || data === null || !('userName' in data)) return undefined;
  return typeof data.userName === 'string' ? data.userName : undefined;
}

export function useChangeUsernameMutation() {
  return useMutation({
    mutationFn: async (username: string) => {
      const userName = userNameOf(
        await apiPost<unknown>('/api/changeUsername', { username }, { silent: true }),
      );
      if (userName === undefined) throw new Error('Answer without data.userName');
      // The session user (top bar, menus) comes from the server: read it again with the new name.
      await refreshSession({ silent: true }).catch(() => undefined);
      return userName;
    },
  });
}
