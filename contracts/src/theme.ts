/**
 * The colour theme a user chose in the account menu's dark-mode panel (ours: the specification names
 * the panel but not its values). Stored with the user, so it follows them to every device.
 */
export const THEME_PREFERENCES = ['light', 'dark', 'system'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

/** Users who never chose keep the light theme the product always had. */
export const DEFAULT_THEME: ThemePreference = 'light';

/** The choices as the panel labels them. */
export const THEME_LABELS: Record<ThemePreference, string> = {
  light: 'Light',
  dark: 'Dark',
  system: 'Follow the system',
};

export const THEME_INVALID_TEXT = "theme must be one of 'light', 'dark' or 'system'.";
export const THEME_SAVED_TEXT = 'Theme saved.';

export const isThemePreference = (value: unknown): value is ThemePreference =>
  typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
