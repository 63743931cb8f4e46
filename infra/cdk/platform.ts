import { Annotations, type App, CrossStackReferences, ReferenceStrength } from 'aws-cdk-lib';
import { METRIC_DIMENSIONS, PLATFORM_METRICS } from '@argentum/functions/domain/metrics';
import { type Route } from '@argentum/functions/http/types';
import { type PlatformConfig } from './config';
import { EDGE_REGION, EdgeStack } from './edge-stack';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';
import { PlatformFunction } from './constructs/platform-function';
import { platformDashboard, Watch } from './constructs/watch';
import { Topic } from 'aws-cdk-lib/aws-sns';

export interface PlatformOptions {
  routes: readonly Route[];
  /** The built web app (frontend/dist), or undefined to synthesize without deploying it. */
  siteAssetPath?: string;
}

export interface Platform {
  edge: EdgeStack;
  stateful: StatefulStack;
  stateless: StatelessStack;
}

/** Both stacks of the platform; the app and the tests build them the same way. */
export function createPlatform(app: App, config: PlatformConfig, options: PlatformOptions): Platform {
  const env = { region: config.region, account: config.account };
  const stateful = new StatefulStack(app, `${config.stackPrefix}Stateful`, {
    env,
    description: 'Argentum building-IoT platform: data (tables, files, users). Retained on delete.',
    telemetryStore: config.telemetryStore,
    appOrigin: config.appOrigin,
    stackPrefix: config.stackPrefix,
    telemetryBatchingWindowSeconds: config.telemetryBatchingWindowSeconds,
    telemetryCapacity: config.telemetryCapacity,
    alarmEmail: config.alarmEmail,
    iotLogLevel: config.iotLogLevel,
    deviceIndexStep: config.deviceIndexStep,
    terminationProtection: true,
  });
  // The edge stack always lives in us-east-1: its name carries the platform's region, so a copy of
  // the platform in another region of the same account has its own.
  const edge = new EdgeStack(app, `${config.stackPrefix}Edge-${config.region}`, {
    env: { region: EDGE_REGION, account: config.account },
    description: 'Argentum building-IoT platform: WAF web ACL of the CloudFront distribution (us-east-1).',
  });
  // Read across regions with Fn::GetStackOutput: no export couples the stacks, no custom resource.
  CrossStackReferences.of(edge.authRateLimit.webAcl).produce(ReferenceStrength.WEAK);
  const stateless = new StatelessStack(app, `${config.stackPrefix}Stateless`, {
    env,
    description: 'Argentum building-IoT platform: API, Lambdas, IoT wiring, web app.',
    stateful: stateful.refs,
    routes: options.routes,
    telemetryStore: config.telemetryStore,
    mailFrom: config.mailFrom,
    appOrigin: config.appOrigin,
    iotEndpoint: config.iotEndpoint,
    siteAssetPath: options.siteAssetPath,
    realtimeAuthorizerName: `${config.stackPrefix}-realtime`,
    webAclArn: edge.webAclArn,
    weather: { city: config.weatherCity, apiKey: config.weatherApiKey },
    telemetryBatchingWindowSeconds: config.telemetryBatchingWindowSeconds,
  });
  Annotations.of(stateless).acknowledgeWarning(
    '@aws-cdk/core:crossStackReferencesDefaultStrong',
    'The one reference CDK tracks between the stacks (the web ACL ARN from the us-east-1 edge stack) is declared weak on its producer; the stateful values are imported by fixed export names.',
  );
  // The stateless stack imports the stateful stack's exports by name.
  stateless.addStackDependency(stateful);
  stateless.addStackDependency(edge);
  watchPlatform(stateful, stateless);
  return { edge, stateful, stateless };
}

/**
 * Alarms on everything that can fail silently in both stacks, found by walking them once they are
 * built (so resources added to either stack are covered), and the health dashboard.
 */
function watchPlatform(stateful: StatefulStack, stateless: StatelessStack): void {
  new Watch(stateful, 'Watch', { topic: stateful.alarmTopic.topic });
  const watch = new Watch(stateless, 'Watch', {
    topic: Topic.fromTopicArn(stateless, 'AlarmTopic', stateful.refs.alarmTopicArn),
  });
  watch.watchApi(stateless.api.api);
  watch.watchVendorPolling({ namespace: PLATFORM_METRICS.vendors.namespace, dimensions: METRIC_DIMENSIONS });
  platformDashboard(watch, {
    alarms: watch.alarms,
    api: stateless.api.api,
    functions: stateless.node.findAll().filter((node) => node instanceof PlatformFunction),
    queues: [stateless.realtime.telemetryQueue, stateless.mailJobs.queue],
    // The platform's own counts (functions/src/domain/metrics.ts, embedded metric format).
    platformMetrics: [
      { title: 'Telemetry: readings stored, dead-lettered, refused', ...PLATFORM_METRICS.telemetry },
      { title: 'Commands by outcome', ...PLATFORM_METRICS.commands },
      { title: 'Alarms raised and cleared', ...PLATFORM_METRICS.alarms },
      { title: 'Third-party devices polled, failed, deferred', ...PLATFORM_METRICS.vendors },
    ].map((graph) => ({ ...graph, dimensions: METRIC_DIMENSIONS })),
  });
}
