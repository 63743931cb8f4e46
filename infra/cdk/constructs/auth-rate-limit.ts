import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { tooManyAttemptsText } from '@argentum/contracts';

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

/**
 * Requests per client IP to anything (app files and API) in 5 minutes before WAF blocks that IP: a
 * flood brake well above what an office of users behind one address makes (a page load is a few
 * dozen requests; live values come over MQTT, not HTTP).
 */
export const addressRateLimit = { limit: 6000, evaluationWindowSec: 300 } as const;

/**
 * AWS managed rule groups, in order: addresses AWS's threat intelligence lists, requests matching the
 * OWASP-style common rules, and known-bad request patterns (Log4j, exploit paths). In the common set,
 * SizeRestrictions_BODY (over 8 KB) only counts: the API enforces its own documented body limits with
 * its own 413 message, and uploads go straight to S3.
 */
const managedRuleGroups = [
  { name: 'AWSManagedRulesAmazonIpReputationList', countOnly: [] as string[] },
  { name: 'AWSManagedRulesCommonRuleSet', countOnly: ['SizeRestrictions_BODY'] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] as string[] },
] as const;

/** Request headers WAF logs never contain (session tokens and cookies). */
const redactedHeaders = ['authorization', 'cookie'] as const;

const BODY_KEY = 'too-many-requests';

/**
 * The CloudFront-scoped web ACL (it must live in us-east-1): the AWS managed rule groups above, a
 * rate-based rule per client IP on the auth routes and a blanket one on every request (both answering
 * like the API's own 429), logged (blocked and counted requests only) to CloudWatch Logs. The
 * distribution is associated through its `webAclId`.
 *
 * IPv6: WAF's rate-based rules aggregate on the whole address (AggregateKeyType IP; custom keys offer
 * no prefix), while the auth Lambda counts an IPv6 client by its /64 (domain/auth/throttle.ts). A client
 * that rotates addresses within its /64 therefore gets a WAF budget per address; the Lambda's per-/64
 * and per-account counters are the limit it still meets (docs/deploy.md).
 */
export class AuthRateLimitAcl extends Construct {
  readonly webAcl: CfnWebACL;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const metric = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName,
    });
    const tooManyRequests = {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: BODY_KEY,
          responseHeaders: [{ name: 'retry-after', value: String(authRateLimit.evaluationWindowSec) }],
        },
      },
    };
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description:
        'Argentum: AWS managed rules, rate limits per client IP on the auth routes and on all requests',
      defaultAction: { allow: {} },
      visibilityConfig: metric('argentum-edge'),
      customResponseBodies: {
        [BODY_KEY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ message: tooManyAttemptsText(authRateLimit.evaluationWindowSec) }),
        },
      },
      rules: [
        ...managedRuleGroups.map((group, index) => ({
          name: group.name,
          priority: index,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: group.name,
              ...(group.countOnly.length
                ? {
                    ruleActionOverrides: group.countOnly.map((name) => ({
                      name,
                      actionToUse: { count: {} },
                    })),
                  }
                : {}),
            },
          },
          visibilityConfig: metric(`argentum-${group.name}`),
        })),
        {
          name: 'auth-routes-per-ip',
          priority: managedRuleGroups.length,
          action: tooManyRequests,
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
        {
          name: 'all-requests-per-ip',
          priority: managedRuleGroups.length + 1,
          action: tooManyRequests,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: addressRateLimit.limit,
              evaluationWindowSec: addressRateLimit.evaluationWindowSec,
            },
          },
          visibilityConfig: metric('argentum-all-requests-per-ip'),
        },
      ],
    });

    // WAF delivers to CloudWatch Logs only into groups named aws-waf-logs-*; the name carries the stack
    // (whose name carries the platform's region), so copies in other regions have their own.
    const stack = Stack.of(this);
    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `aws-waf-logs-${stack.stackName}`,
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      // The log group's ARN without the `:*` suffix, as WAF requires.
      logDestinationConfigs: [
        stack.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: this.logGroup.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      redactedFields: redactedHeaders.map((name) => ({ singleHeader: { Name: name } })),
      // What WAF blocked or only counted; allowed requests are in CloudFront's access logs.
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [
          {
            Behavior: 'KEEP',
            Requirement: 'MEETS_ANY',
            Conditions: [{ ActionCondition: { Action: 'BLOCK' } }, { ActionCondition: { Action: 'COUNT' } }],
          },
        ],
      },
    });
  }
}
