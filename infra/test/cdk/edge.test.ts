import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { tooManyAttemptsText } from '@argentum/events/contracts';
import { routes } from '@argentum/functions/routes/index';
import { authRateLimit, rateLimitedAuthPaths } from '../../cdk/constructs/auth-rate-limit';
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
      Rules: [
        {
          Name: 'auth-routes-per-ip',
          Priority: 0,
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
      ],
      CustomResponseBodies: {
        'too-many-requests': {
          ContentType: 'APPLICATION_JSON',
          Content: JSON.stringify({ message: tooManyAttemptsText(300) }),
        },
      },
    });
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
