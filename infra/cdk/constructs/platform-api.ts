import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type ApiDomain, type Route, routeKey } from '@argentum/functions/http/types';
import { acknowledgeRule } from '../nag';

export interface PlatformApiProps {
  userPoolId: string;
  userPoolClientId: string;
}

/**
 * The HTTP API built from the route table: a route per documented call, integrated with its domain's
 * Lambda, behind the Cognito JWT authorizer unless the route is public. Only CloudFront calls it
 * (same origin as the web app), so no CORS.
 */
export class PlatformApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The API's host name, for the CloudFront origin. */
  readonly domainName: string;
  private readonly authorizer: HttpJwtAuthorizer;
  private readonly routeKeys = new Set<string>();
  private readonly integrations = new Map<ApiDomain, HttpLambdaIntegration>();

  constructor(scope: Construct, id: string, props: PlatformApiProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Argentum platform API (generated from the route table)',
      createDefaultStage: false,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 200, burstLimit: 400 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTimeEpoch',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            user: '$context.authorizer.claims.sub',
          }),
        ),
      },
    });

    this.authorizer = new HttpJwtAuthorizer(
      'CognitoJwt',
      `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${props.userPoolId}`,
      {
        // Cognito access tokens carry the client id in `client_id`, which API Gateway checks.
        jwtAudience: [props.userPoolClientId],
        identitySource: ['$request.header.Authorization'],
      },
    );

    this.domainName = `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
  }

  /**
   * One route per route-table entry (functions/src/routes), integrated with its domain's Lambda and
   * behind the JWT authorizer unless the route is public.
   */
  addRouteTable(routes: readonly Route[], handlerOf: (domain: ApiDomain) => IFunction): void {
    const integrationOf = (domain: ApiDomain) => {
      let integration = this.integrations.get(domain);
      if (!integration) {
        // One API-scoped invoke permission per Lambda keeps its resource policy small.
        integration = new HttpLambdaIntegration(`${domain}-integration`, handlerOf(domain), {
          scopePermissionToRoute: false,
        });
        this.integrations.set(domain, integration);
      }
      return integration;
    };

    for (const route of routes) {
      const key = routeKey(route);
      if (this.routeKeys.has(key)) throw new Error(`The route table declares ${key} twice`);
      this.routeKeys.add(key);
      const [apiRoute] = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrationOf(route.domain),
        authorizer: route.access === 'public' ? undefined : this.authorizer,
      });
      if (apiRoute && route.access === 'public') {
        acknowledgeRule(
          apiRoute,
          'APIG4',
          `${key} is public by the specification (sign-in, refresh, registration, password reset): the caller has no access token yet; the handler validates its own credential (password, refresh cookie or one-time token).`,
        );
      }
    }
  }
}
