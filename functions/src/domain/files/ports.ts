/** What the file use cases need from object storage (the files bucket); stores/files.ts implements it. */

/** The rules a browser upload must keep; the store enforces them when the file arrives. */
export interface UploadPolicy {
  /** The exact Content-Type the upload must declare. */
  contentType: string;
  minBytes: number;
  maxBytes: number;
  expiresInSeconds: number;
}

/** Where and how a browser posts one file: a multipart form, `fields` first and the file last. */
export interface UploadForm {
  url: string;
  fields: Record<string, string>;
}

export interface StoredObject {
  size: number;
  contentType?: string;
  /** When the object was last written. */
  lastModified?: Date;
  /** The small metadata it was written with (names in lower case). */
  metadata?: Record<string, string>;
}

export interface FileStore {
  /** A form that lets a browser store one file at exactly `key`, within the policy, until it expires. */
  uploadForm(key: string, policy: UploadPolicy): Promise<UploadForm>;
  /** Size and type of an object; undefined when there is none. */
  describe(key: string): Promise<StoredObject | undefined>;
  /**
   * An object's bytes, but never more than `maxBytes + 1` of them (a longer object is known to be too
   * long without reading it all); undefined when there is none.
   */
  read(key: string, limit: { maxBytes: number }): Promise<Uint8Array | undefined>;
  /**
   * Stores an object, replacing any previous one, with optional small metadata (a few short strings)
   * and the Content-Disposition and Cache-Control it is served with (S3 system metadata).
   */
  write(
    key: string,
    bytes: Uint8Array,
    contentType: string,
    metadata?: Record<string, string>,
    served?: { contentDisposition?: string; cacheControl?: string },
  ): Promise<void>;
  /** Removes an object; removing one that is not there is no error. */
  delete(key: string): Promise<void>;
  /**
   * A URL that reads the object, served as `contentType` (and with `contentDisposition` and
   * `cacheControl` when given), for `expiresInSeconds`.
   */
  readUrl(
    key: string,
    options: {
      contentType: string;
      expiresInSeconds: number;
      contentDisposition?: string;
      cacheControl?: string;
    },
  ): Promise<string>;
}

export interface FilePorts {
  files: FileStore;
}

/**
 * Expiring URLs of stored floor plans, served by the app's own origin with headers the files bucket
 * cannot send (nosniff, a sandboxing CSP): CloudFront signed URLs on AWS, its twin locally.
 */
export interface PlanUrlSigner {
  /** A URL that serves the object at `key` (under the plan prefix) for `expiresInSeconds`. */
  signedUrl(key: string, expiresInSeconds: number): Promise<string>;
}

/** An SVG made safe to show: what is left of it, and its size in user units. */
export interface SanitizedSvg {
  svg: string;
  width: number;
  height: number;
}

/**
 * Why an SVG is refused: `entity` when it declares entities or carries a DTD internal subset (never
 * parsed), `unreadable` when it is not well-formed XML or its root is not an SVG `<svg>` element, `no-size`
 * when it gives neither a viewBox nor an absolute width and height, `too-deep` when its elements nest
 * deeper than FLOOR_PLAN_MAX_DEPTH (never parsed).
 */
export type SvgRefusal = 'entity' | 'unreadable' | 'no-size' | 'too-deep';

export type SvgVerdict = ({ ok: true } & SanitizedSvg) | { ok: false; reason: SvgRefusal };

/**
 * Makes an untrusted SVG safe to show (adapters/svg-sanitizer.ts): no script, no event handlers, no
 * foreignObject, no reference outside the document, no entity expansion. Geometry, text, fills,
 * transforms and the viewBox stay.
 */
export interface SvgSanitizer {
  sanitize(text: string): Promise<SvgVerdict>;
}

/** One raster image of a plan: its size in pixels and its encoded bytes (WebP). */
export interface PlanRaster {
  width: number;
  height: number;
  bytes: Uint8Array;
}

/**
 * Draws a sanitized SVG as raster images of the given widths (adapters/plan-rasterizer.ts). A width
 * whose image would be larger than the format allows is left out; a plan with no size to draw at gets
 * none.
 */
export interface PlanRasterizer {
  render(svg: Uint8Array, widths: readonly number[]): Promise<PlanRaster[]>;
}
