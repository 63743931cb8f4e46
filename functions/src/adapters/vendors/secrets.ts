import type { SecretStore } from '../../domain/integrations/ports';
import type { Clock } from '../../domain/ports';

/** A warm Lambda reuses a secret's value this long before reading it again. */
const CACHE_MS = 5 * 60_000;

/**
 * Vendor credentials in AWS Secrets Manager (locally its stand-in, infra/local/vendor-standins.ts).
 * A secret that does not exist reads as '' (the vendor is not connected). The client is loaded on first
 * use (aws/secrets-manager.ts), not at cold start.
 */
export function secretsManagerStore(clock: Clock): SecretStore {
  const cache = new Map<string, { value: string; readAt: number }>();
  return {
    async read(secretId, options) {
      const cached = cache.get(secretId);
      const now = clock.now().getTime();
      if (!options?.fresh && cached && now - cached.readAt < CACHE_MS) return cached.value;
      let value = '';
      const { secretsManager, GetSecretValueCommand, ResourceNotFoundException } =
        await import('../../aws/secrets-manager');
      try {
        const answer = await secretsManager().send(new GetSecretValueCommand({ SecretId: secretId }));
        value = answer.SecretString ?? '';
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
      cache.set(secretId, { value, readAt: now });
      return value;
    },
    async write(secretId, value) {
      const { secretsManager, PutSecretValueCommand } = await import('../../aws/secrets-manager');
      await secretsManager().send(new PutSecretValueCommand({ SecretId: secretId, SecretString: value }));
      cache.set(secretId, { value, readAt: clock.now().getTime() });
    },
  };
}
