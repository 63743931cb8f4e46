/** The specification's longest wait between two reconnect attempts of the real-time channel. */
export const RECONNECT_MAX_MS = 8000;
/**
 * How long a closed connection may take to come back before the page says it is lost: the first
 * reconnect waits 400-500 ms, then a token and a CONNECT take a round trip each.
 */
export const LOSS_GRACE_MS = 3000;
/** The first wait after a connection is lost. */
const RECONNECT_FIRST_MS = 500;

/**
 * How long to wait before reconnect attempt `attempt` (0 for the first after a loss): doubling from
 * RECONNECT_FIRST_MS, never more than RECONNECT_MAX_MS. `jitter` (0..1, Math.random in the browser)
 * takes up to a fifth off, so that browsers dropped together do not all come back in the same instant.
 */
export function reconnectDelay(attempt: number, jitter = 0): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(base * (1 - 0.2 * Math.min(1, Math.max(0, jitter))));
}
