import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentedCalls } from '@argentum/functions/routes/documented-calls';
import { synthPlatform } from './synth';

describe('every documented call is an API Gateway route', () => {
  let routeKeys: Set<unknown>;
  beforeAll(() => {
    const template = Template.fromStack(synthPlatform().stateless);
    routeKeys = new Set(
      Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
        (route) => (route as { Properties: { RouteKey: unknown } }).Properties.RouteKey,
      ),
    );
  });

  it('lists the 55 documented calls', () => {
    expect(documentedCalls).toHaveLength(55);
  });

  it.each(documentedCalls.map((call) => [`${call.method} ${call.path}`]))('%s', (key) => {
    expect(routeKeys.has(key)).toBe(true);
  });
});
