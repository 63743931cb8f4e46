/**
 * The keep-alive clock of the real-time channel, in a dedicated worker built as a same-origin file
 * (allowed by the CSP's script-src 'self'; a worker made from a blob: URL is not). A worker's timers
 * keep their pace in a hidden tab, where Chrome runs a page's repeating timers once a minute at
 * most, later than the broker's 1.5 keep-alives. Messages: {set: id, ms} starts an interval that
 * posts its id at each tick; {clear: id} stops it.
 */
type KeepaliveRequest = { set: number; ms: number } | { clear: number };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<KeepaliveRequest>) => void) | null;
  postMessage(message: number): void;
};
const intervals = new Map<number, ReturnType<typeof setInterval>>();

scope.onmessage = ({ data }) => {
  if ('set' in data) {
    const id = data.set;
    intervals.set(
      id,
      setInterval(() => scope.postMessage(id), data.ms),
    );
    return;
  }
  clearInterval(intervals.get(data.clear));
  intervals.delete(data.clear);
};
