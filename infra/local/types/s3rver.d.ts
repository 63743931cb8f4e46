declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  export interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Where objects are kept; its Koa context holds the same (the controllers read `ctx.store`). */
    store: import('s3rver/lib/stores/filesystem').default;
    context: { store: import('s3rver/lib/stores/filesystem').default };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
