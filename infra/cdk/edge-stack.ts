import { Stack, type StackProps } from 'aws-cdk-lib';
import { type Construct } from 'constructs';
import { AuthRateLimitAcl } from './constructs/auth-rate-limit';

/** CloudFront-scoped WAF resources must be created in us-east-1, whatever the platform's region. */
export const EDGE_REGION = 'us-east-1';

/**
 * What protects the CloudFront distribution (the web app and, under /api, the HTTP API) at the edge:
 * the WAF web ACL. Its own stack because CloudFront takes only web ACLs from us-east-1; the
 * stateless stack reads its ARN across regions.
 */
export class EdgeStack extends Stack {
  readonly authRateLimit: AuthRateLimitAcl;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    this.authRateLimit = new AuthRateLimitAcl(this, 'AuthRateLimit');
  }

  get webAclArn(): string {
    return this.authRateLimit.webAcl.attrArn;
  }
}
