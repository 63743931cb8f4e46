import { type DeflatedText, gzipOf, inflateText } from './gzip-splice';

type Part = string | DeflatedText;

/**
 * A value already serialized as JSON text, typed by what it holds. A response body of this kind is
 * sent as it is: an answer assembled from stored JSON fragments (the sidebar's tree summaries) is
 * not parsed and serialized again. Fragments may be stored deflated (lib/gzip-splice.ts): such a
 * body is answered gzip, spliced from them, to a caller that accepts it, and inflated for any other.
 */
export class JsonText<T> {
  /** Only types the text: what parsing it would give. */
  declare readonly parsed?: T;
  private readonly parts: readonly Part[];
  private inflated?: string;

  constructor(text: string | DeflatedText | readonly Part[]) {
    this.parts = Array.isArray(text) ? text : [text as Part];
  }

  /** The JSON array of `items`, in their order. */
  static array<T>(items: readonly JsonText<T>[]): JsonText<T[]> {
    return JsonText.join<T[]>('[', ...items.flatMap((item, i) => (i === 0 ? [item] : [',', item])), ']');
  }

  /** The text of `parts` in order; strings are JSON text as they are. */
  static join<T>(...parts: readonly (string | JsonText<unknown>)[]): JsonText<T> {
    return new JsonText<T>(parts.flatMap((part) => (typeof part === 'string' ? [part] : part.parts)));
  }

  /** Whether some of it is stored deflated (then `gzip` costs no compression). */
  get deflated(): boolean {
    return this.parts.some((part) => typeof part !== 'string');
  }

  get text(): string {
    this.inflated ??= this.parts
      .map((part) => (typeof part === 'string' ? part : inflateText(part)))
      .join('');
    return this.inflated;
  }

  /** The text as one gzip body, its deflated parts spliced in as they are. */
  gzip(): Buffer {
    return gzipOf(this.parts);
  }
}
