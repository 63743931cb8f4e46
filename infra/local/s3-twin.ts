import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EventEmitter } from 'node:events';
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account';
import S3Object from 's3rver/lib/models/object';
import FilesystemStore from 's3rver/lib/stores/filesystem';
import { type S3GateOptions, startS3Gate } from './s3-gate';

const ignoreMissing = (error: unknown) => {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
};

/**
 * s3rver's file store with S3's consistency. S3 replaces an object whole and at once: a reader gets
 * the old object or the new one, and what a PUT answered is read back whole. s3rver's own store writes
 * an object over its file in place and answers before the last bytes reach it, so a GET racing a PUT
 * is served a short body under the old length (and the client waits for ever for the rest), and a GET
 * right after a PUT may read it cut short. Its listing fails when an object is deleted while it walks.
 *
 * Here an object is written to a file of its own beside the buckets (the same disk), completely, then
 * renamed over the object with its metadata while no reader of that key opens it; a reader keeps the
 * file it opened. A delete leaves the folders (S3 has none; s3rver removing an emptied folder broke a
 * write into it). A listing that meets a file removed under it is walked again.
 */
class ConsistentStore extends FilesystemStore {
  private readonly partial: string;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(rootDirectory: string) {
    super(rootDirectory);
    this.partial = `${path.resolve(rootDirectory)}.partial`;
  }

  /** Runs `task` while no other task of the same key runs (the renames of a write, a reader's open). */
  private async exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.locks.get(key) ?? Promise.resolve();
    const run = before.then(task, task);
    const settled = run.catch(() => undefined);
    this.locks.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    }
  }

  override async getObject(bucket: string, key: string, options?: { start?: number; end?: number }) {
    // s3rver reads the length, then opens the file: both of one version, once held.
    return this.exclusive(this.getResourcePath(bucket, key, 'object'), () =>
      super.getObject(bucket, key, options),
    );
  }

  override async putObject(object: S3Object) {
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    const metadataPath = this.getResourcePath(object.bucket, object.key, 'metadata.json');
    const md5Path = this.getResourcePath(object.bucket, object.key, 'object.md5');
    await mkdir(this.partial, { recursive: true });
    const temp = path.join(this.partial, randomUUID());
    const files = { object: `${temp}.object`, md5: `${temp}.md5`, metadata: `${temp}.json` };
    try {
      const md5 = createHash('md5');
      let size = 0;
      const content = object.content ?? Buffer.alloc(0);
      await pipeline(
        Buffer.isBuffer(content) ? Readable.from([content]) : content,
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            md5.update(chunk);
            size += chunk.length;
            callback(null, chunk);
          },
        }),
        // Resolves once every byte is written to the file.
        createWriteStream(files.object),
      );
      const digest = md5.digest('hex');
      // The metadata s3rver keeps: its allowed system headers and the user's x-amz-meta-*.
      const kept = Object.fromEntries(
        Object.entries(object.metadata).filter(
          ([name]) => S3Object.ALLOWED_METADATA.includes(name) || name.startsWith('x-amz-meta-'),
        ),
      );
      await Promise.all([
        writeFile(files.md5, digest),
        writeFile(files.metadata, JSON.stringify(kept, null, 2)),
        mkdir(path.dirname(objectPath), { recursive: true }),
      ]);
      await this.exclusive(objectPath, async () => {
        await rename(files.md5, md5Path);
        await rename(files.metadata, metadataPath);
        await rename(files.object, objectPath);
      });
      return { size, md5: digest };
    } finally {
      await Promise.all(Object.values(files).map((file) => rm(file, { force: true })));
    }
  }

  override async deleteObject(bucket: string, key: string) {
    const objectPath = this.getResourcePath(bucket, key, 'object');
    await this.exclusive(objectPath, async () => {
      for (const resource of ['object', 'object.md5', 'metadata.json'])
        await unlink(this.getResourcePath(bucket, key, resource)).catch(ignoreMissing);
    });
  }

  override async listObjects(bucket: string, options: Record<string, unknown>) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await super.listObjects(bucket, options);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 5) throw error;
      }
    }
  }
}

export interface S3TwinOptions extends Omit<S3GateOptions, 'upstreamPort'> {
  /** Where objects are kept. */
  directory: string;
  /** The buckets, each with its configuration documents (S3's XML: CORS). */
  buckets: { name: string; configs: string[] }[];
}

export interface S3Twin {
  /** The S3 endpoint's port (the gate's). */
  port: number;
  /** The objects' events, as s3rver emits them (S3 event records). */
  events: EventEmitter;
  stop(): Promise<void>;
}

/**
 * The S3 endpoint at `port`: s3rver on its consistent store, on a private port (a free one it binds
 * itself), behind the gate that checks what S3 checks (s3-gate.ts).
 */
export async function startS3Twin(options: S3TwinOptions): Promise<S3Twin> {
  const { directory, buckets, ...gateOptions } = options;
  // The gate checks each request's signature; s3rver still refuses a key it does not hold.
  for (const [accessKeyId, secret] of Object.entries(options.credentials))
    AWSAccount.DUMMY_ACCOUNT.createKeyPair(accessKeyId, secret);
  const s3rver = new S3rver({
    address: options.host,
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets,
  });
  s3rver.store = s3rver.context.store = new ConsistentStore(directory);
  const { port: upstreamPort } = await s3rver.run();
  const gate = await startS3Gate({ ...gateOptions, upstreamPort }).catch(async (error: unknown) => {
    await s3rver.close();
    throw error;
  });
  return {
    port: gate.port,
    // s3rver is a Koa app, so an EventEmitter (its types leave that out): it emits S3 event records.
    events: s3rver as unknown as EventEmitter,
    async stop() {
      await gate.stop();
      await s3rver.close();
    },
  };
}
