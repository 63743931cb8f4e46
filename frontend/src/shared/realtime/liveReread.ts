/**
 * How often a page reads again, while it is shown, what may have changed without its knowing: what the
 * live topics keep current (the open floor's devices and counts, the bell's unread count) and what
 * nothing pushes (a sensor's graph of today, the organization tree others edit). A live message can be
 * lost without a word: IoT Core discards what passes 100 messages a second on a connection, and a
 * device that went offline sends nothing more, so a page left open would go on showing it online, or
 * miss an alarm, until it was reloaded. Paused while the page is hidden; shown again, the page reads
 * at once what is older than its stale time.
 */
export const LIVE_REREAD_MS = 5 * 60_000;
