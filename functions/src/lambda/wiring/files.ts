import { cloudFrontPlanUrls } from '../../adapters/plan-url-signer';
import { secretsManagerStore } from '../../adapters/vendors/secrets';
import { config } from '../../config';
import { s3FileStore } from '../../stores/files';
import { clock } from './core';

/** The files bucket: logos, their uploads and floor plans. */
export const files = s3FileStore;

/** Signed URLs of floor plans, served by the app's origin (CloudFront; locally its twin). */
export const planUrls = cloudFrontPlanUrls(
  secretsManagerStore(clock),
  () => ({ appOrigin: config.appOrigin, ...config.planSigning }),
  clock,
);
