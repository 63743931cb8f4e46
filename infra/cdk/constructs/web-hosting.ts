import { Annotations, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccessLevel,
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  type IKeyGroup,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  S3OriginAccessControl,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '@argentum/functions/http/client-address';
import { FLOOR_PLAN_PREFIX } from '@argentum/functions/domain/files/keys';
import { contentSecurityPolicy, FLOOR_PLAN_CONTENT_SECURITY_POLICY } from '../../src/content-security-policy';
import { acknowledgeRule, acknowledgePolicyWildcardsAtSynth } from '../nag';

export interface WebHostingProps {
  /** Host name of the HTTP API, served under /api/* and /integrations/* on the same domain. */
  apiDomainName: string;
  /** Host name of the IoT data endpoint browsers open the MQTT WebSocket to. */
  iotEndpoint: string;
  /** Origin of the files bucket: browsers post uploads to it and load logos from presigned URLs. */
  filesOrigin: string;
  /**
   * The origin plan URLs are signed for when it is not the distribution's own (a custom `appOrigin`):
   * the CSP lets the app show images from it.
   */
  planOrigin?: string;
  /** The built web app (frontend/dist), or undefined to synthesize without deploying it. */
  siteAssetPath?: string;
  /** Runtime settings the web app reads from /config.json (deploy-time values). */
  runtimeConfig: Record<string, string>;
  /** The WAF web ACL (CloudFront scope, us-east-1) in front of the distribution. */
  webAclArn: string;
}

/** The path the distribution serves floor plans under: the files bucket's plan prefix, as it is. */
export const floorPlanPathPattern = `/${FLOOR_PLAN_PREFIX}*`;

/** Path prefixes the API serves; everything else is the single-page app. */
export const apiPathPatterns = ['/api/*', '/integrations/*'] as const;

/**
 * Viewer-request function of the SPA behavior: a path whose last segment has no extension is an app
 * route (/home, /login, /register/<token>) and gets index.html; files (/assets/x.js) pass through.
 */
export const spaRewriteCode = `function handler(event) {
  var request = event.request;
  var lastSegment = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

/**
 * Viewer-request function of the API behaviors: the viewer's address, as CloudFront saw it, goes to
 * the API in a header (replacing any the browser sent); the API believes it only together with the
 * origin secret (functions/src/http/client-address.ts).
 */
export const viewerAddressCode = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

/**
 * The security headers of everything the distribution serves (the app and floor plans), with the
 * content security policy of each: HSTS for two years, nosniff, no framing, and no Referer (invite
 * and reset links carry one-time tokens in the path).
 */
function securityHeaders(csp: string): ResponseSecurityHeadersBehavior {
  return {
    strictTransportSecurity: {
      accessControlMaxAge: Duration.days(730),
      includeSubdomains: true,
      override: true,
    },
    contentTypeOptions: { override: true },
    frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
    referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
    contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
  };
}

/**
 * The web app: a private S3 bucket behind CloudFront (origin access control), security headers on
 * every response, SPA routing, and the API on the same domain so cookies stay first-party.
 */
export class WebHosting extends Construct {
  readonly siteBucket: Bucket;
  readonly logsBucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  readonly deployment?: BucketDeployment;
  /** The secret CloudFront sends the API with every request; the API Lambdas get it as ORIGIN_SECRET. */
  readonly originSecret: Secret;
  /** The headers served floor plans carry (nosniff, a sandboxing CSP); set by serveFloorPlans. */
  planHeadersPolicy?: ResponseHeadersPolicy;
  private readonly globalName: (kind: string) => string;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);

    this.logsBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // CloudFront standard logs are delivered with ACLs.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    acknowledgeRule(
      this.logsBucket,
      'S1',
      'This bucket is the access-log destination of the site bucket and the distribution; logging it into itself would loop.',
    );

    this.siteBucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'site-bucket/',
      // Build output only: it is redeployed from frontend/dist on every deploy.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    // CloudFront is global: names of its policies are unique per account, so they carry the stack's
    // region (CDK's generated names do not; CloudFront Functions' do). Two regions never collide.
    const stack = Stack.of(this);
    const globalName = (kind: string) => `${stack.stackName}-${stack.region}-${kind}`;
    this.globalName = globalName;
    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: globalName('security-headers'),
      comment: 'Argentum security headers',
      securityHeadersBehavior: securityHeaders(
        contentSecurityPolicy({
          realtime: `wss://${props.iotEndpoint}`,
          files: props.filesOrigin,
          ...(props.planOrigin ? { plans: props.planOrigin } : {}),
        }),
      ),
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()', override: true },
          { header: 'Cross-Origin-Opener-Policy', value: 'same-origin', override: true },
        ],
      },
    });

    const spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      comment: 'Serve index.html for extension-less app routes',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(spaRewriteCode),
    });

    // Tells the API a request came through this distribution, so it may believe the viewer address.
    this.originSecret = new Secret(this, 'OriginSecret', {
      description: `Argentum: the value of the ${ORIGIN_SECRET_HEADER} header CloudFront adds to API requests`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeRule(
      this.originSecret,
      'SMG4',
      'The value is set in the distribution and in the API Lambdas on deploy; a rotation would leave them apart until the next deploy, and a wrong value only makes the API count requests by the edge address.',
    );
    const viewerAddress = new CloudFrontFunction(this, 'ViewerAddress', {
      comment: 'Pass the viewer address to the API',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(viewerAddressCode),
    });

    const apiBehavior: BehaviorOptions = {
      origin: new HttpOrigin(props.apiDomainName, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        // CloudFront replaces a header of this name that a viewer sent.
        customHeaders: { [ORIGIN_SECRET_HEADER]: this.originSecret.secretValue.unsafeUnwrap() },
      }),
      functionAssociations: [{ function: viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Forwards Authorization, cookies and the body; API Gateway needs its own Host header.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: this.responseHeadersPolicy,
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Argentum web app and API',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.siteBucket, {
          originAccessControl: new S3OriginAccessControl(this, 'SiteAccess', {
            originAccessControlName: globalName('site'),
          }),
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors: Object.fromEntries(apiPathPatterns.map((pattern) => [pattern, apiBehavior])),
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logsBucket,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
    });
    acknowledgeRule(
      this.distribution,
      'CFR1',
      'Facility staff and devices of customer organizations may be anywhere; there is no legal or business geo restriction to enforce.',
    );
    acknowledgeRule(
      this.distribution,
      'CFR4',
      'The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the viewer security policy at TLSv1; a minimum of TLSv1.2_2021 needs a custom domain and certificate (not part of this deployment).',
    );

    if (props.siteAssetPath) {
      this.deployment = new BucketDeployment(this, 'DeploySite', {
        sources: [Source.asset(props.siteAssetPath), Source.jsonData('config.json', props.runtimeConfig)],
        destinationBucket: this.siteBucket,
        distribution: this.distribution,
        distributionPaths: ['/*'],
        memoryLimit: 512,
        // Tabs opened before a deploy lazy-load the previous build's hashed chunks: keep them. Builds
        // are a few MB; old chunks stay until the site bucket is emptied (docs/deploy.md).
        prune: false,
      });
      this.acknowledgeDeploymentHandler(this.deployment);
    }
  }

  /**
   * Floor plans (sanitized SVGs in the files bucket) on this distribution under their key's path:
   * read through origin access control (the files bucket's policy grants it, stateful-stack.ts), only
   * with a URL signed by a key of `keyGroup` (the API signs them for members of the plan's
   * organization, for five minutes), never cached, with `nosniff` and a CSP that lets an opened plan
   * load and run nothing: headers S3 itself cannot send.
   */
  serveFloorPlans(props: { filesBucketName: string; keyGroup: IKeyGroup }): void {
    const filesBucket = Bucket.fromBucketName(this, 'FilesBucket', props.filesBucketName);
    this.planHeadersPolicy = new ResponseHeadersPolicy(this, 'PlanHeaders', {
      responseHeadersPolicyName: this.globalName('plan-headers'),
      comment: 'Argentum floor plans: nosniff and a sandboxing CSP',
      securityHeadersBehavior: securityHeaders(FLOOR_PLAN_CONTENT_SECURITY_POLICY),
    });
    this.distribution.addBehavior(
      floorPlanPathPattern,
      S3BucketOrigin.withOriginAccessControl(filesBucket, {
        originAccessControl: new S3OriginAccessControl(this, 'FilesAccess', {
          originAccessControlName: this.globalName('files'),
        }),
        originAccessLevels: [AccessLevel.READ],
      }),
      {
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        // A new plan replaces the old one at the same key: never serve a stale one.
        cachePolicy: CachePolicy.CACHING_DISABLED,
        trustedKeyGroups: [props.keyGroup],
        responseHeadersPolicy: this.planHeadersPolicy,
      },
    );
    Annotations.of(this).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
      "The files bucket's policy (stateful stack) grants this account's distributions read access to the plan prefix.",
    );
  }

  /** The CDK-provided deployment Lambda is not ours to shape; acknowledge its findings with reasons. */
  private acknowledgeDeploymentHandler(deployment: BucketDeployment): void {
    acknowledgePolicyWildcardsAtSynth(
      deployment.handlerRole,
      'CDK BucketDeployment handler: copies the built app from the CDK asset bucket into the site bucket (object keys of a build are not known in advance) and invalidates the distribution; CDK generates this policy scoped to those two buckets.',
    );
    acknowledgeRule(
      deployment.handlerRole,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'CDK BucketDeployment handler: CDK attaches the AWS managed basic execution policy (CloudWatch Logs only) to its singleton role.',
    );
    const handler = Stack.of(this)
      .node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))
      .at(0);
    if (handler) {
      acknowledgeRule(
        handler,
        'L1',
        'CDK BucketDeployment handler: CDK pins the Python runtime of this deploy-time helper; it runs only during deployments.',
      );
    }
  }
}
