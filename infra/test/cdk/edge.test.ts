import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { tooManyAttemptsText } from '@argentum/contracts';
import { routes } from '@argentum/functions/routes/index';
import { addressRateLimit, authRateLimit, rateLimitedAuthPaths } from '../../cdk/constructs/auth-rate-limit';
import { synthPlatform, type SynthesizedPlatform } from './synth';

let platform: SynthesizedPlatform;
let edge: Template;
beforeAll(() => {
  platform = synthPlatform();
  edge = Template.fromStack(platform.edge);
});

describe('WAF in front of the distribution', () => {
  it('lives in us-east-1 with CloudFront scope, as CloudFront requires', () => {
    expect(Stack.of(platform.edge).region).toBe('us-east-1');
    edge.resourceCountIs('AWS::WAFv2::WebACL', 1);
    edge.hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
  });

  it('rate-limits each client IP on exactly the public auth routes, answering 429 with Retry-After', () => {
    expect(authRateLimit.limit).toBe(500);
    edge.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        {
          Name: 'auth-routes-per-ip',
          Priority: 3,
          Action: {
            Block: {
              CustomResponse: {
                ResponseCode: 429,
                CustomResponseBodyKey: 'too-many-requests',
                ResponseHeaders: [{ Name: 'retry-after', Value: '300' }],
              },
            },
          },
          Statement: {
            RateBasedStatement: {
              AggregateKeyType: 'IP',
              Limit: 500,
              EvaluationWindowSec: 300,
              ScopeDownStatement: {
                OrStatement: {
                  Statements: [
                    '/api/login',
                    '/api/dashboard/forgetPasswordEmail',
                    '/api/setForgetPassword',
                    '/api/registerUser',
                    '/api/confirmUser',
                    '/api/refreshToken',
                  ].map((path) => ({
                    ByteMatchStatement: {
                      FieldToMatch: { UriPath: {} },
                      PositionalConstraint: 'EXACTLY',
                      SearchString: path,
                      TextTransformations: [{ Priority: 0, Type: 'NONE' }],
                    },
                  })),
                },
              },
            },
          },
          VisibilityConfig: Match.objectLike({
            CloudWatchMetricsEnabled: true,
            SampledRequestsEnabled: true,
          }),
        },
      ]),
      CustomResponseBodies: {
        'too-many-requests': {
          ContentType: 'APPLICATION_JSON',
          Content: JSON.stringify({ message: tooManyAttemptsText(300) }),
        },
      },
    });
  });

  it('runs the AWS managed rule groups first: IP reputation, common rules (large bodies only counted), known bad inputs', () => {
    const [acl] = Object.values(edge.findResources('AWS::WAFv2::WebACL')) as {
      Properties: { Rules: { Name: string; Priority: number; Statement: Record<string, unknown> }[] };
    }[];
    const rules = acl?.Properties.Rules ?? [];
    const managed = rules.filter((rule) => 'ManagedRuleGroupStatement' in rule.Statement);
    expect(managed.map((rule) => [rule.Priority, rule.Name])).toEqual([
      [0, 'AWSManagedRulesAmazonIpReputationList'],
      [1, 'AWSManagedRulesCommonRuleSet'],
      [2, 'AWSManagedRulesKnownBadInputsRuleSet'],
    ]);
    edge.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({
          Name: 'AWSManagedRulesCommonRuleSet',
          OverrideAction: { None: {} },
          Statement: {
            ManagedRuleGroupStatement: {
              VendorName: 'AWS',
              Name: 'AWSManagedRulesCommonRuleSet',
              RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
            },
          },
        }),
      ]),
    });
    expect(new Set(rules.map((rule) => rule.Priority)).size).toBe(rules.length);
  });

  it('rate-limits every client IP on all requests as well, with the same 429', () => {
    expect(addressRateLimit.limit).toBeGreaterThan(authRateLimit.limit);
    edge.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({
          Name: 'all-requests-per-ip',
          Action: { Block: Match.objectLike({ CustomResponse: Match.objectLike({ ResponseCode: 429 }) }) },
          Statement: {
            RateBasedStatement: {
              AggregateKeyType: 'IP',
              Limit: addressRateLimit.limit,
              EvaluationWindowSec: 300,
            },
          },
        }),
      ]),
    });
  });

  it('logs blocked and counted requests to an aws-waf-logs- group, without tokens or cookies', () => {
    edge.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: `aws-waf-logs-${platform.edge.stackName}`,
      RetentionInDays: Match.anyValue(),
    });
    edge.hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
      ResourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('WebAcl'), 'Arn'] },
      LogDestinationConfigs: [Match.objectLike({ 'Fn::Join': Match.anyValue() })],
      RedactedFields: [{ SingleHeader: { Name: 'authorization' } }, { SingleHeader: { Name: 'cookie' } }],
      LoggingFilter: Match.objectLike({ DefaultBehavior: 'DROP' }),
    });
    const [logging] = Object.values(edge.findResources('AWS::WAFv2::LoggingConfiguration'));
    // WAF takes the log group's ARN without CloudWatch's `:*` suffix.
    expect(JSON.stringify(logging)).not.toContain(':*');
  });

  it('names only routes of the route table that are public', () => {
    for (const path of rateLimitedAuthPaths) {
      const route = routes.find((r) => r.path === path);
      expect(route?.access, path).toBe('public');
    }
  });

  it('is the web ACL of the distribution, read from the edge stack without an export', () => {
    const stateless = Template.fromStack(platform.stateless);
    const [distribution] = Object.values(stateless.findResources('AWS::CloudFront::Distribution')) as {
      Properties: { DistributionConfig: { WebACLId?: unknown } };
    }[];
    const webAclId = JSON.stringify(distribution?.Properties.DistributionConfig.WebACLId);
    expect(webAclId).toContain('Fn::GetStackOutput');
    expect(webAclId).toContain('"Region":"us-east-1"');
    expect(webAclId).toContain(`"StackName":"${platform.edge.stackName}"`);
    expect(platform.stateless.dependencies).toContain(platform.edge);
    for (const stack of [platform.edge, platform.stateless]) {
      expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
    }
  });
});
