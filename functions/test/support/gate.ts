/**
 * A gate a test holds code at: `pass()` resolves `reached`, then waits until the test calls `release()`.
 * Races are played with it: the code under test is stopped at one point while the test acts.
 */
export function gate() {
  let reach = () => {};
  let release = () => {};
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    reached,
    release: () => release(),
    async pass() {
      reach();
      await released;
    },
  };
}
