import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { lazy } from './lazy';

/**
 * Secrets Manager as the platform uses it (the client and its commands), in one module that callers
 * import on first use (`await import('../aws/secrets-manager')`): a secret is read once per warm
 * Lambda, if at all (docs/architecture.md, Lambda runtime and bundling).
 */
export {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-secrets-manager';
// Bounded like the vendor requests: a slow Secrets Manager must not hang an integration call.
export const secretsManager = lazy(
  () => new SecretsManagerClient({ requestHandler: { connectionTimeout: 2000, requestTimeout: 3000 } }),
);
