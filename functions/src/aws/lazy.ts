/** One lazily created client per service, reused across invocations of a warm Lambda. */
export function lazy<T>(create: () => T): () => T {
  let instance: T | undefined;
  return () => (instance ??= create());
}
