import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';
import { lazy } from './lazy';

export const s3 = lazy(
  () =>
    new S3Client({
      forcePathStyle: config.s3ForcePathStyle,
      // The local emulator stores streamed uploads corrupted when checksums are always computed.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
);
