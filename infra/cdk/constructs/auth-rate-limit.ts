import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { tooManyAttemptsText } from '@argentum/events/contracts';

/** The public routes where credentials, tokens and mail can be tried: rate-limited per client IP. */
export const rateLimitedAuthPaths = [
  '/api/login',
  '/api/dashboard/forgetPasswordEmail',
  '/api/setForgetPassword',
  '/api/registerUser',
  '/api/confirmUser',
  '/api/refreshToken',
] as const;

/**
 * Requests per client IP to those routes in a 5-minute window before WAF blocks that IP (until its
 * rate drops). Generous on purpose: an office shares one address, and every page load refreshes the
 * session. The per-account and per-address counters in the auth Lambda are the fine-grained limit;
 * this rule keeps floods from reaching it at all.
 */
export const authRateLimit = { limit: 500, evaluationWindowSec: 300 } as const;

const BODY_KEY = 'too-many-requests';

/**
 * A CloudFront-scoped web ACL (it must live in us-east-1) with one rate-based rule: per client IP,
 * counting only requests to the auth routes, answering a blocked request like the API's own 429.
 * Everything else is allowed; the distribution is associated through its `webAclId`.
 */
export class AuthRateLimitAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const metric = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName,
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Argentum: rate limit per client IP on the public auth routes',
      defaultAction: { allow: {} },
      visibilityConfig: metric('argentum-edge'),
      customResponseBodies: {
        [BODY_KEY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ message: tooManyAttemptsText(authRateLimit.evaluationWindowSec) }),
        },
      },
      rules: [
        {
          name: 'auth-routes-per-ip',
          priority: 0,
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: BODY_KEY,
                responseHeaders: [{ name: 'retry-after', value: String(authRateLimit.evaluationWindowSec) }],
              },
            },
          },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: authRateLimit.limit,
              evaluationWindowSec: authRateLimit.evaluationWindowSec,
              scopeDownStatement: {
                orStatement: {
                  statements: rateLimitedAuthPaths.map((path) => ({
                    byteMatchStatement: {
                      fieldToMatch: { uriPath: {} },
                      positionalConstraint: 'EXACTLY',
                      searchString: path,
                      textTransformations: [{ priority: 0, type: 'NONE' }],
                    },
                  })),
                },
              },
            },
          },
          visibilityConfig: metric('argentum-auth-routes-per-ip'),
        },
      ],
    });
  }
}
