import { useMutation } from '@tanstack/react-query';
import { callApi, refreshSession } from '../../../shared/api/client';
import type { ThemePreference } from '@argentum/contracts';
import { establishSession, parseAuthResponse, renewingSession } from '../../../shared/session/sessionStore';
import { chooseTheme, currentThemePreference, themeSaved } from '../../../shared/theme/theme';

/**
 * A password change ends every session of the user, this page's old one too; this page goes on with
 * the new session the answer carries (its refresh cookie is set by the same answer). Until then the old
 * tokens are refused: the change is a renewal (renewingSession), so the real-time channel, whose
 * connection it closes, waits for it rather than take the refusal for the end of the session.
 */
export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      renewingSession(async () => {
        const answer = await callApi(
          'changepassword',
          { oldpassword: oldPassword, password: newPassword },
          { silent: true },
        );
        const session = parseAuthResponse(answer);
        if (session) establishSession(session);
        else await refreshSession({ silent: true }).catch(() => undefined);
        return answer;
      }),
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
      const userName = userNameOf(await callApi('changeUsername', { username }, { silent: true }));
      if (userName === undefined) throw new Error('Answer without data.userName');
      // The session user (top bar, menus) comes from the server: read it again with the new name.
      await refreshSession({ silent: true }).catch(() => undefined);
      return userName;
    },
  });
}

/**
 * Saves the user's colour theme. The choice is applied at once (see `choose`), before the save; a
 * refused save puts the previous theme back unless another choice came meanwhile.
 */
export function useSetThemeMutation() {
  const mutation = useMutation({
    // One save at a time, in the order chosen: the last choice is the one stored.
    scope: { id: 'theme' },
    mutationFn: async ({
      userId,
      theme,
    }: {
      userId: string;
      theme: ThemePreference;
      previous: ThemePreference;
    }) => {
      await callApi('setTheme', { theme }, { silent: true });
      themeSaved(userId, theme);
      return theme;
    },
    onError: (_error, { userId, theme, previous }) => {
      if (currentThemePreference() === theme) chooseTheme(userId, previous);
    },
  });
  const choose = (userId: string, theme: ThemePreference) => {
    const previous = currentThemePreference();
    chooseTheme(userId, theme);
    mutation.mutate({ userId, theme, previous });
  };
  return { choose, isError: mutation.isError };
}
