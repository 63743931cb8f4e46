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
  /** Stores an object, replacing any previous one. */
  write(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Removes an object; removing one that is not there is no error. */
  delete(key: string): Promise<void>;
  /** A URL that reads the object, served as `contentType`, for `expiresInSeconds`. */
  readUrl(key: string, options: { contentType: string; expiresInSeconds: number }): Promise<string>;
}

export interface FilePorts {
  files: FileStore;
}
