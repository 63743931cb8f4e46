import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { secretsManagerStore } from '../adapters/vendors/secrets';
import { systemClock } from '../domain/ports';

/** A CloudFormation custom resource request (Lambda-backed, answered on its pre-signed URL). */
export interface CustomResourceEvent {
  RequestType: 'Create' | 'Update' | 'Delete';
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceProperties: { SecretId?: string };
}

const secrets = secretsManagerStore(systemClock);

/**
 * A key pair made at deploy: the real-time custom authorizer's token-signing key (CDK:
 * constructs/realtime.ts) and the floor plan URL key (stateless-stack.ts). On create (and on an
 * update, should the secret not hold a key yet) it makes an RSA 2048 pair and stores the private half
 * in the secret, which only the functions that sign read; it answers the public half, which
 * CloudFormation gives the IoT authorizer (`TokenSigningPublicKeys`) or the CloudFront public key of
 * the plans' key group. The private key never passes through CloudFormation. Delete leaves the secret
 * to its own resource.
 */
export async function signingKey(event: Pick<CustomResourceEvent, 'RequestType' | 'ResourceProperties'>) {
  const secretId = event.ResourceProperties.SecretId;
  if (!secretId) throw new Error('SecretId is required');
  if (event.RequestType === 'Delete') return { PublicKey: '' };
  let pem = await secrets.read(secretId, { fresh: true });
  if (!pem.includes('PRIVATE KEY')) {
    pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    await secrets.write(secretId, pem);
  }
  return { PublicKey: createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString() };
}

export async function handler(event: CustomResourceEvent): Promise<void> {
  const answer = {
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    PhysicalResourceId: event.PhysicalResourceId ?? `${event.LogicalResourceId}-signing-key`,
  };
  let body: Record<string, unknown>;
  try {
    body = { ...answer, Status: 'SUCCESS', Data: await signingKey(event) };
  } catch (error) {
    body = { ...answer, Status: 'FAILED', Reason: error instanceof Error ? error.message : String(error) };
  }
  // CloudFormation waits for this answer on the pre-signed S3 URL (content type left empty, as it signs it).
  const response = await fetch(event.ResponseURL, {
    method: 'PUT',
    headers: { 'content-type': '' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`CloudFormation answer refused: ${response.status}`);
}
