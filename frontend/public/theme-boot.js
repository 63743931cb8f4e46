/*
 * Applies the colour theme before the first paint, so a dark page never flashes light. Loaded as a
 * blocking classic script in <head> (the content security policy allows no inline script). It reads
 * the copy of the preference the app keeps per user (src/shared/theme/theme.ts, same keys) for the
 * user last signed in on this device; the app reconciles it with the server's value after sign-in.
 */
(function () {
  var preference = 'light';
  try {
    var user = window.localStorage.getItem('argentum.theme.lastUser');
    var stored = user ? window.localStorage.getItem('argentum.theme.user.' + user) : null;
    if (stored === 'light' || stored === 'dark' || stored === 'system') preference = stored;
  } catch {
    // Storage refused (privacy settings): the default theme.
  }
  var dark =
    preference === 'dark' ||
    (preference === 'system' &&
      typeof window.matchMedia === 'function' &&
      window.matchMedia('(prefers-color-scheme: dark)').matches);
  var root = document.documentElement;
  root.setAttribute('data-theme', dark ? 'dark' : 'light');
  root.setAttribute('data-theme-preference', preference);
})();
