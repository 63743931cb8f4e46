import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import type { SecretStore } from '../domain/integrations/ports';
import type { TokenSigner } from '../domain/realtime/connection-token';

/**
 * Signs real-time connection tokens with the RSA private key (PEM) held in a Secrets Manager secret:
 * RSA-SHA256, base64, which IoT Core verifies with the custom authorizer's token-signing public key
 * (CDK: constructs/realtime.ts makes the pair and stores the private half there; locally the stack
 * does). The key is read once per warm Lambda (the store caches it).
 */
export function secretKeySigner(secrets: SecretStore, secretId: () => string): TokenSigner {
  let key: { pem: string; object: KeyObject } | undefined;
  return {
    async sign(token) {
      const pem = await secrets.read(secretId());
      if (!pem) throw new Error('The real-time signing key secret is empty');
      if (key?.pem !== pem) key = { pem, object: createPrivateKey(pem) };
      return sign('sha256', Buffer.from(token, 'utf8'), key.object).toString('base64');
    },
  };
}
