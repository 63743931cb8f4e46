/**
 * The S3 SDK as the platform uses it (the client, its commands, the presigners), in one module that
 * callers import on first use (`await import('../aws/s3-sdk')`): split off from the bundle, it is no
 * longer read at the cold start of every Lambda that may touch the files bucket (docs/architecture.md).
 */
export {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
export { createPresignedPost } from '@aws-sdk/s3-presigned-post';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
export { s3 } from './s3';
