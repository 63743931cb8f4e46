import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { LAST_USER_KEY, themeKey } from './theme';

const script = readFileSync(new URL('../../../public/theme-boot.js', import.meta.url), 'utf8');

/** Runs the boot script against a page stub: the attributes it sets on <html>. */
function boot(storage: Record<string, string>, systemDark = false, storageThrows = false) {
  const attributes: Record<string, string> = {};
  const localStorage = {
    getItem: (key: string) => {
      if (storageThrows) throw new Error('SecurityError');
      return storage[key] ?? null;
    },
  };
  const window = { localStorage, matchMedia: () => ({ matches: systemDark }) };
  const document = {
    documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value) },
  };
  runInNewContext(script, { window, document });
  return attributes;
}

describe('the theme boot script (first paint)', () => {
  const stored = (value: string) => ({ [LAST_USER_KEY]: 'u1', [themeKey('u1')]: value });

  it("applies the last user's copy, kept under the keys the app writes", () => {
    expect(boot(stored('dark'))).toEqual({ 'data-theme': 'dark', 'data-theme-preference': 'dark' });
    expect(boot(stored('light'), true)).toEqual({ 'data-theme': 'light', 'data-theme-preference': 'light' });
  });

  it('follows the system for "system"', () => {
    expect(boot(stored('system'), true)['data-theme']).toBe('dark');
    expect(boot(stored('system'), false)['data-theme']).toBe('light');
  });

  it('falls back to light without a user, with a bad value or without storage', () => {
    const light = { 'data-theme': 'light', 'data-theme-preference': 'light' };
    expect(boot({}, true)).toEqual(light);
    expect(boot({ [themeKey('u1')]: 'dark' })).toEqual(light); // another user's copy is not ours
    expect(boot(stored('blue'))).toEqual(light);
    expect(boot(stored('dark'), false, true)).toEqual(light);
  });
});
