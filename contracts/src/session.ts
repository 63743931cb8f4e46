/**
 * The cookie that tells the web app a session can be restored at load. It is set with the httpOnly
 * refresh cookie, lives as long and is cleared with it, and holds no secret (`1`), so the page can
 * read it: without it the app goes to the sign-in page at once instead of asking for a refresh that
 * cannot succeed (specification: a refresh is attempted at load only if a refresh cookie exists).
 */
export const SESSION_HINT_COOKIE = 'signedIn';
