import type { z } from 'zod/mini';
import type { IntegrationVendor } from '@argentum/contracts';
import { vendorError } from '../../domain/integrations/errors';
import type { SecretStore } from '../../domain/integrations/ports';

/**
 * A vendor's credentials from its secret (JSON). A secret that is missing, not JSON or not of the
 * expected shape (the placeholder CDK creates) means the vendor has not been connected yet.
 */
export async function readCredentials<Schema extends z.ZodMiniType>(
  secrets: SecretStore,
  secretId: string,
  schema: Schema,
  vendor: IntegrationVendor,
  fresh = false,
): Promise<z.infer<Schema>> {
  let json: unknown;
  try {
    json = JSON.parse(await secrets.read(secretId, { fresh }));
  } catch {
    throw vendorError(vendor, 'unauthorized');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw vendorError(vendor, 'unauthorized');
  return parsed.data;
}
