import { lazy } from '../aws/lazy';
import { config } from '../config';
import type { FileStore } from '../domain/files/ports';

/** The S3 SDK, loaded on first use (aws/s3-sdk.ts). */
const sdk = lazy(() => import('../aws/s3-sdk'));

const statusOf = async (error: unknown) => {
  const { S3ServiceException } = await sdk();
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
};

/**
 * The files bucket through S3 (key layout: domain/files/keys.ts). Upload forms and read URLs are
 * presigned with the Lambda's own role.
 */
export const s3FileStore: FileStore = {
  async uploadForm(key, policy) {
    // The policy S3 enforces: this bucket and key (added by the presigner), the Content-Type field
    // exactly as given, the size range, and the expiry.
    const { createPresignedPost, s3 } = await sdk();
    const { url, fields } = await createPresignedPost(s3(), {
      Bucket: config.filesBucket,
      Key: key,
      Fields: { 'Content-Type': policy.contentType },
      Conditions: [['content-length-range', policy.minBytes, policy.maxBytes]],
      Expires: policy.expiresInSeconds,
    });
    return { url, fields };
  },

  async describe(key) {
    const { HeadObjectCommand, s3 } = await sdk();
    try {
      const head = await s3().send(new HeadObjectCommand({ Bucket: config.filesBucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType,
        lastModified: head.LastModified,
        metadata: head.Metadata,
      };
    } catch (error) {
      if ((await statusOf(error)) === 404) return undefined;
      throw error;
    }
  },

  async read(key, { maxBytes }) {
    const { GetObjectCommand, s3 } = await sdk();
    try {
      const object = await s3().send(
        new GetObjectCommand({ Bucket: config.filesBucket, Key: key, Range: `bytes=0-${maxBytes}` }),
      );
      return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      const status = await statusOf(error);
      if (status === 404) return undefined;
      // A range of an empty object cannot be satisfied.
      if (status === 416) return new Uint8Array();
      throw error;
    }
  },

  async write(key, bytes, contentType, metadata, served) {
    const { PutObjectCommand, s3 } = await sdk();
    await s3().send(
      new PutObjectCommand({
        Bucket: config.filesBucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ...(metadata ? { Metadata: metadata } : {}),
        ...(served?.contentDisposition ? { ContentDisposition: served.contentDisposition } : {}),
        ...(served?.cacheControl ? { CacheControl: served.cacheControl } : {}),
      }),
    );
  },

  async delete(key) {
    const { DeleteObjectCommand, s3 } = await sdk();
    await s3().send(new DeleteObjectCommand({ Bucket: config.filesBucket, Key: key }));
  },

  async readUrl(key, { contentType, expiresInSeconds, contentDisposition, cacheControl }) {
    // S3 serves the response headers a presigned GET names (Content-Type, Content-Disposition,
    // Cache-Control); it cannot add others such as X-Content-Type-Options or Content-Security-Policy.
    const { GetObjectCommand, getSignedUrl, s3 } = await sdk();
    return getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: config.filesBucket,
        Key: key,
        ResponseContentType: contentType,
        ...(contentDisposition ? { ResponseContentDisposition: contentDisposition } : {}),
        ...(cacheControl ? { ResponseCacheControl: cacheControl } : {}),
      }),
      { expiresIn: expiresInSeconds },
    );
  },
};
