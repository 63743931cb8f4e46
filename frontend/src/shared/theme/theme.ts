import { useSyncExternalStore } from 'react';
import { DEFAULT_THEME, isThemePreference, type ThemePreference } from '@argentum/contracts';

export type { ThemePreference };
export type ColorMode = 'light' | 'dark';

/**
 * The colour theme of the page. The preference is the user's (stored on the server with their
 * record); this module applies it to <html> (`data-theme` = the mode in effect, read by the CSS
 * variables of styles.css; `data-theme-preference` = the choice) and keeps a copy per user in
 * localStorage, which public/theme-boot.js applies before the first paint of the next load.
 * Keep the keys in step with that script.
 */
export const LAST_USER_KEY = 'argentum.theme.lastUser';
export const themeKey = (userId: string) => `argentum.theme.user.${userId}`;

const DARK_QUERY = '(prefers-color-scheme: dark)';

const root = (): HTMLElement | undefined =>
  typeof document === 'undefined' ? undefined : document.documentElement;

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(DARK_QUERY).matches
    : false;
}

const resolveTheme = (preference: ThemePreference, systemDark = systemPrefersDark()): ColorMode =>
  preference === 'dark' || (preference === 'system' && systemDark) ? 'dark' : 'light';

interface ThemeState {
  preference: ThemePreference;
  mode: ColorMode;
}

function initialState(): ThemeState {
  // What the boot script applied, so the first render agrees with the first paint.
  const applied = root()?.getAttribute('data-theme-preference');
  const preference = isThemePreference(applied) ? applied : DEFAULT_THEME;
  return { preference, mode: resolveTheme(preference) };
}

let state: ThemeState = initialState();
const listeners = new Set<() => void>();

function paint(next: ThemeState): void {
  const element = root();
  if (element) {
    element.setAttribute('data-theme', next.mode);
    element.setAttribute('data-theme-preference', next.preference);
  }
  if (next.preference === state.preference && next.mode === state.mode) return;
  state = next;
  for (const listener of listeners) listener();
}

/** Applies a preference at once (no reload): 'system' follows the device from now on. */
export function applyTheme(preference: ThemePreference): void {
  paint({ preference, mode: resolveTheme(preference) });
}

/** Keeps this device's copy of a user's preference, for the first paint of the next load. */
function rememberTheme(userId: string, preference: ThemePreference): void {
  try {
    localStorage.setItem(LAST_USER_KEY, userId);
    localStorage.setItem(themeKey(userId), preference);
  } catch {
    // Storage refused: the theme still applies, only the next load starts from the default.
  }
}

let watching = false;

/** 'Follow the system' reacts to the device switching between light and dark while the page is open. */
export function watchSystemTheme(): void {
  if (watching || typeof window === 'undefined' || typeof window.matchMedia !== 'function') return;
  watching = true;
  window.matchMedia(DARK_QUERY).addEventListener('change', (event) => {
    if (state.preference === 'system')
      paint({ preference: 'system', mode: event.matches ? 'dark' : 'light' });
  });
}

let synced: { userId: string; theme: ThemePreference } | undefined;

/**
 * The server's value wins when a session begins or brings a different value (another device chose):
 * applied and remembered. Called with every session user; a user's own choice is applied before it
 * is saved (see `chooseTheme`), so a session answered meanwhile with the old value does not undo it.
 */
export function reconcileTheme(user: { id: string; theme: ThemePreference }): void {
  if (synced?.userId === user.id && synced.theme === user.theme) return;
  synced = { userId: user.id, theme: user.theme };
  rememberTheme(user.id, user.theme);
  applyTheme(user.theme);
}

/** The user's own choice: applied and remembered now, before the server has saved it. */
export function chooseTheme(userId: string, preference: ThemePreference): void {
  rememberTheme(userId, preference);
  applyTheme(preference);
}

/** Records that the server saved a choice, so the next session answer carrying it changes nothing. */
export function themeSaved(userId: string, preference: ThemePreference): void {
  synced = { userId, theme: preference };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getState = () => state;

export const currentThemePreference = (): ThemePreference => state.preference;

/** The preference and the mode in effect, re-rendering on every change (choice or device switch). */
export function useTheme(): ThemeState {
  return useSyncExternalStore(subscribe, getState, getState);
}
