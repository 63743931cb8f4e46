import type { PlanUrlSigner } from '../domain/files/ports';
import type { SecretStore } from '../domain/integrations/ports';
import type { Clock } from '../domain/ports';

/** Where plan URLs point and what signs them: the app's origin, the key's secret and its public key's id. */
export interface PlanSigningSettings {
  appOrigin: string;
  secretId: string;
  keyPairId: string;
}

/**
 * CloudFront signed URLs (canned policy, RSA-SHA256 with `Hash-Algorithm=SHA256`) of the plans the
 * distribution serves from the files bucket under the same path as their key (CDK:
 * constructs/web-hosting.ts; locally infra/local/plan-edge.ts checks them the same way). The private
 * key is read from its secret once per warm Lambda (the store caches it). The signer is read on first
 * use: the Lambdas that wire it (users, floors, floor plans) sign plan URLs in few of their calls.
 */
export function cloudFrontPlanUrls(
  secrets: SecretStore,
  settings: () => PlanSigningSettings,
  clock: Clock,
): PlanUrlSigner {
  return {
    async signedUrl(key, expiresInSeconds) {
      const { appOrigin, secretId, keyPairId } = settings();
      const privateKey = await secrets.read(secretId);
      if (!privateKey) throw new Error('The plan URL signing key secret is empty');
      const { getSignedUrl } = await import('@aws-sdk/cloudfront-signer');
      const url = new URL(`/${key.split('/').map(encodeURIComponent).join('/')}`, appOrigin).toString();
      return getSignedUrl({
        url,
        keyPairId,
        privateKey,
        dateLessThan: new Date(clock.now().getTime() + expiresInSeconds * 1000),
        algorithm: 'SHA256',
      });
    },
  };
}
