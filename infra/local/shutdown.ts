/**
 * Stops the parts in turn. A part that fails is reported and the next one stopped; one that has not
 * stopped after `partMs` is named and left behind, so stopping never hangs for ever (a test run's
 * teardown, Ctrl-C of `npm start`).
 */
export async function stopInTurn(
  parts: readonly (() => Promise<void>)[],
  partMs: number,
  report: (message: string, error?: unknown) => void = (message, error) =>
    error === undefined ? console.error(message) : console.error(message, error),
): Promise<void> {
  for (const stop of parts) {
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        report(`local stack: ${stop.toString()} did not stop within ${partMs / 1000} s`);
        resolve();
      }, partMs);
    });
    await Promise.race([
      stop().catch((error: unknown) => report('local stack: a part failed to stop', error)),
      stuck,
    ]);
    clearTimeout(timer);
  }
}
