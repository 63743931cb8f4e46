import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiDomains } from '@argentum/functions/http/types';
import { API_INIT_ALLOWANCE_SECONDS } from '../../src/definitions';
import { synthPlatform } from './synth';

/**
 * API Gateway gives an HTTP API's integration at most 30 s ("Quotas for configuring and running an HTTP
 * API in API Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html:
 * "Maximum integration timeout: 30 seconds", not adjustable), its default when the integration names
 * none (`TimeoutInMillis`, 50 to 30,000 ms). A Lambda that may run longer than its integration waits is
 * answered by the gateway (503, its own text), not by the function's own deadline and error handling:
 * every function behind the API must time out first.
 */
const HTTP_API_MAX_INTEGRATION_TIMEOUT_MS = 30_000;

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

let resources: Resources;
beforeAll(() => {
  resources = Template.fromStack(synthPlatform().stateless).toJSON().Resources as Resources;
}, 300_000);

/** The logical id of the Lambda function an integration invokes (`Fn::GetAtt [id, Arn]`). */
function invokedFunction(integration: Record<string, unknown>): string {
  const uri = integration.IntegrationUri as { 'Fn::GetAtt'?: [string, string] } | undefined;
  const [id, attribute] = uri?.['Fn::GetAtt'] ?? [];
  if (!id || attribute !== 'Arn') throw new Error(`Not a Lambda integration: ${JSON.stringify(uri)}`);
  return id;
}

describe("the HTTP API's integrations and their Lambdas' timeouts", () => {
  it('integrates every API domain with a Lambda (proxy), each integration waiting at most 30 s', () => {
    const integrations = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::ApiGatewayV2::Integration',
    );
    expect(integrations).toHaveLength(apiDomains.length);
    for (const { Properties: integration } of integrations) {
      expect(integration.IntegrationType).toBe('AWS_PROXY');
      expect(resources[invokedFunction(integration)]?.Type).toBe('AWS::Lambda::Function');
      const waits =
        (integration.TimeoutInMillis as number | undefined) ?? HTTP_API_MAX_INTEGRATION_TIMEOUT_MS;
      expect(waits).toBeLessThanOrEqual(HTTP_API_MAX_INTEGRATION_TIMEOUT_MS);
    }
  });

  it('gives every Lambda behind the API a timeout that, with a cold start, ends before its integration gives up', () => {
    const timeouts = Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Integration')
      .map(({ Properties: integration }) => {
        const fn = invokedFunction(integration);
        return {
          fn,
          timeoutMs: (resources[fn]?.Properties.Timeout as number) * 1000,
          waitsMs: (integration.TimeoutInMillis as number | undefined) ?? HTTP_API_MAX_INTEGRATION_TIMEOUT_MS,
        };
      });
    expect(timeouts).toHaveLength(apiDomains.length);
    for (const { fn, timeoutMs, waitsMs } of timeouts) {
      expect(Number.isInteger(timeoutMs), fn).toBe(true);
      // The timeout counts the handler only: a cold start's init comes before it.
      expect(timeoutMs + API_INIT_ALLOWANCE_SECONDS * 1000, fn).toBeLessThanOrEqual(waitsMs);
    }
  });
});
