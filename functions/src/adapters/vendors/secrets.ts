import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SecretStore } from '../../domain/integrations/ports';
import type { Clock } from '../../domain/ports';

/** A warm Lambda reuses a secret's value this long before reading it again. */
const CACHE_MS = 5 * 60_000;

/**
 * Vendor credentials in AWS Secrets Manager (locally its stand-in, infra/local/vendor-standins.ts).
 * A secret that does not exist reads as '' (the vendor is not connected). The SDK and the client
 * (`client`, e.g. a dynamic import of aws/secrets-manager.ts) are loaded on first use, not at cold start.
 */
export function secretsManagerStore(client: () => Promise<SecretsManagerClient>, clock: Clock): SecretStore {
  const sdk = () => import('@aws-sdk/client-secrets-manager');
  const cache = new Map<string, { value: string; readAt: number }>();
  return {
    async read(secretId, options) {
      const cached = cache.get(secretId);
      const now = clock.now().getTime();
      if (!options?.fresh && cached && now - cached.readAt < CACHE_MS) return cached.value;
      let value = '';
      const [{ GetSecretValueCommand, ResourceNotFoundException }, secrets] = await Promise.all([
        sdk(),
        client(),
      ]);
      try {
        const answer = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
        value = answer.SecretString ?? '';
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
      cache.set(secretId, { value, readAt: now });
      return value;
    },
    async write(secretId, value) {
      const [{ PutSecretValueCommand }, secrets] = await Promise.all([sdk(), client()]);
      await secrets.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: value }));
      cache.set(secretId, { value, readAt: clock.now().getTime() });
    },
  };
}
