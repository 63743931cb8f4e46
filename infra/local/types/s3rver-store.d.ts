/** s3rver's own file store and object model (CommonJS, untyped): what the twin's store builds on. */
declare module 's3rver/lib/models/object' {
  import type { Readable } from 'node:stream';

  export default class S3Object {
    constructor(
      bucket: string,
      key: string,
      content: Readable | Buffer | null,
      metadata: Record<string, string>,
    );
    bucket: string;
    key: string;
    content: Readable | Buffer | null;
    metadata: Record<string, string>;
    static ALLOWED_METADATA: string[];
  }
}

declare module 's3rver/lib/stores/filesystem' {
  import type S3Object from 's3rver/lib/models/object';

  export default class FilesystemStore {
    constructor(rootDirectory: string);
    rootDirectory: string;
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    getObject(
      bucket: string,
      key: string,
      options?: { start?: number; end?: number },
    ): Promise<S3Object | null>;
    putObject(object: S3Object): Promise<{ size: number; md5: string }>;
    deleteObject(bucket: string, key: string): Promise<void>;
    listObjects(bucket: string, options: Record<string, unknown>): Promise<unknown>;
  }
}

/** s3rver's accounts: the access keys it admits (it verifies no SigV4 signature, only the key). */
declare module 's3rver/lib/models/account' {
  export default class AWSAccount {
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
    /** The one account every authenticated request is made as. */
    static DUMMY_ACCOUNT: AWSAccount;
  }
}
