import { RemovalPolicy } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledgeRule } from '../nag';

export type IntegrationVendor = 'ryse' | 'nest' | 'ecobee';

/** What an operator puts into each secret (docs/deploy.md); the integrations function and the vendor poller read it. */
const contents: Record<IntegrationVendor, string> = {
  ryse: 'Ryse SmartBridge: {"bridgeUrl":"https://...","token":"..."}',
  nest: 'Google Nest (Device Access): {"projectId":"...","clientId":"...","clientSecret":"...","refreshToken":"..."}',
  ecobee:
    'Ecobee: {"apiKey":"...","refreshToken":"..."} (the integrations function and the vendor poller store each rotated refresh token here)',
};

/**
 * One Secrets Manager secret per third-party cloud, holding its credentials. CDK creates them with a
 * random placeholder, never their values: until an operator puts the credentials in, the vendor's
 * calls answer that it is not connected. Retained: credentials outlive deployments. Their names are
 * generated (the stack's `<Vendor>SecretArn` outputs give them): a retained secret with a fixed name
 * would make a redeploy after the stack was deleted fail on that name.
 */
export class VendorSecrets extends Construct {
  readonly secrets: Record<IntegrationVendor, Secret>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const secret = (vendor: IntegrationVendor) => {
      const created = new Secret(this, vendor, {
        description: contents[vendor],
        removalPolicy: RemovalPolicy.RETAIN,
      });
      acknowledgeRule(
        created,
        'SMG4',
        vendor === 'ecobee'
          ? 'Ecobee rotates its refresh token on every use; the integrations function and the vendor poller store each new one here. A Secrets Manager rotation Lambda cannot obtain one (Ecobee issues them only through its own authorization flow).'
          : "These are third-party OAuth client credentials and refresh tokens (or a bridge token) issued through the vendor's own console and consent flow; no rotation Lambda can obtain new ones. Operators replace them there.",
      );
      return created;
    };
    this.secrets = { ryse: secret('ryse'), nest: secret('nest'), ecobee: secret('ecobee') };
  }
}
