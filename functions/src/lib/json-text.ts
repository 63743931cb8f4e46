/**
 * A value already serialized as JSON text, typed by what it holds. A response body of this kind is
 * sent as it is: an answer assembled from stored JSON fragments (the sidebar's tree summaries) is
 * not parsed and serialized again.
 */
export class JsonText<T> {
  /** Only types the text: what parsing it would give. */
  declare readonly parsed?: T;
  constructor(readonly text: string) {}

  /** The JSON array of `items`, in their order. */
  static array<T>(items: readonly JsonText<T>[]): JsonText<T[]> {
    return new JsonText<T[]>(`[${items.map((item) => item.text).join(',')}]`);
  }
}
