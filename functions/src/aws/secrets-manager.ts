import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { lazy } from './lazy';

// Bounded like the vendor requests: a slow Secrets Manager must not hang an integration call.
export const secretsManager = lazy(
  () => new SecretsManagerClient({ requestHandler: { connectionTimeout: 2000, requestTimeout: 3000 } }),
);
