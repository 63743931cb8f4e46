import { ArnFormat, type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IAlarm,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type CfnGlobalTable, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnTopicRule, CfnAuthorizer } from 'aws-cdk-lib/aws-iot';
import { CfnPermission } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { LogGroup, MetricFilter, FilterPattern } from 'aws-cdk-lib/aws-logs';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { acknowledgeRule } from '../nag';
import { asyncInvocations } from '../../src/definitions';
import { PlatformFunction } from './platform-function';

/** The namespace of metrics the platform computes itself (log metric filters, EMF from the Lambdas). */
export const PLATFORM_NAMESPACE = 'Argentum';

/** Thresholds: what is worth waking someone for. */
export const watchThresholds = {
  /** Seconds the oldest message of a worked queue may wait (telemetry: a few batching windows). */
  queueAgeSeconds: 600,
  /** API requests answered 5xx in 5 minutes (a count: a handler maps every error it expects to a 4xx). */
  api5xxPerFiveMinutes: 5,
  /** p99 latency of the API (ms) over 5 minutes; API Gateway and CloudFront give up at 30 s. */
  apiLatencyP99Ms: 5000,
  /** Connection attempts IoT Core could not authorize in 5 minutes (refused tokens, certificates). */
  connectAuthErrorsPerFiveMinutes: 50,
  /**
   * Messages IoT Core discarded in 5 minutes, in either direction, for a connection past its 100
   * publishes a second: each is a reading or reply a device lost, or a live value, command outcome or
   * notification a page missed (it catches up at the next reading, the command's deadline or the bell's
   * next read). A few in a burst are not worth a page; more mean a device or a page's traffic needs a look.
   */
  throttledPublishesPerFiveMinutes: 10,
  /**
   * A table's throttled requests (reads or writes) in each of `tableThrottlePeriods` 5-minute periods in a
   * row. The SDK, ingest and the roll-ups retry a throttled request and redeliver what still failed, so a
   * throttle loses nothing; throttling that lasts means the capacity is short (auto scaling at its
   * ceiling, a hot key) and the queue or the stream is falling behind.
   */
  tableThrottleEvents: 1,
  tableThrottlePeriods: 2,
  /**
   * A provisioned table's consumed capacity as a share of its provisioned capacity (%), sustained for
   * `capacityRatioPeriods` 5-minute periods: auto scaling targets 70%, so staying above this means it
   * cannot follow (at its maximum, or the account's quota).
   */
  capacityRatioPercent: 90,
  capacityRatioPeriods: 3,
  /**
   * Runs of the vendor poller in a row (5 minutes apart) with a device it could not read: one vendor
   * timeout is not worth a page; 15 minutes of them (an outage, a revoked token) is, and by then
   * presence has turned the devices offline on the floors.
   */
  vendorPollFailurePeriods: 3,
} as const;

/** Principals that invoke a Lambda asynchronously (Lambda retries, then drops the event). */
const asyncInvokers = ['events.amazonaws.com', 's3.amazonaws.com', 'sns.amazonaws.com'];

/**
 * Watches every resource of a stack that can fail silently, found by walking the stack (so Lambdas,
 * queues and rules added later are covered without edits here):
 * - every queue: one with a dead-letter queue is worked (alarm when its oldest message is older than
 *   `queueAgeSeconds`); one without is a dead-letter or on-failure queue (alarm on any message);
 * - every platform Lambda: errors and throttles; an asynchronously invoked one (an IoT rule's Lambda
 *   action, EventBridge, S3, SNS) gets an on-failure SQS destination first, watched like the others;
 * - every IoT rule: a failure written by its CloudWatch Logs error action (a metric filter counts them);
 * - the IoT custom authorizer: connection attempts the broker refused; with it, IoT Core's message
 *   broker: messages it discarded past a connection's 100 publishes a second, in and out;
 * - every DynamoDB table: throttled reads and writes; a provisioned one also its consumed capacity as
 *   a share of the provisioned (auto scaling that cannot follow);
 * - the HTTP API: 5xx and p99 latency.
 * Alarms notify the given topic. Call it once the stack's constructor has run.
 */
export class Watch extends Construct {
  readonly alarms: Alarm[] = [];
  private readonly action: SnsAction;
  private readonly stack: Stack;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: { topic: ITopic },
  ) {
    super(scope, id);
    this.stack = Stack.of(this);
    this.action = new SnsAction(props.topic);
    const all = this.stack.node.findAll();
    for (const fn of all.filter((c): c is PlatformFunction => c instanceof PlatformFunction)) {
      if (invokedAsynchronously(fn, this.stack)) this.addFailureDestination(fn);
    }
    // Walk again: the on-failure queues just added are watched too.
    for (const node of this.stack.node.findAll()) {
      if (node instanceof Queue) this.watchQueue(node);
      else if (node instanceof PlatformFunction) this.watchFunction(node);
      else if (node instanceof CfnTopicRule) this.watchRule(node);
      else if (node instanceof CfnAuthorizer) this.watchIotCore(node);
      else if (node instanceof TableV2) this.watchTable(node);
    }
  }

  /** The HTTP API's 5xx and latency (called by the stack that holds it). */
  watchApi(api: HttpApi): void {
    this.alarm('Api5xx', api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }), {
      threshold: watchThresholds.api5xxPerFiveMinutes,
      description: 'The API answered 5xx (handler errors, timeouts, integration failures)',
    });
    this.alarm('ApiLatency', api.metricLatency({ period: Duration.minutes(5), statistic: 'p99' }), {
      threshold: watchThresholds.apiLatencyP99Ms,
      description: `The API's p99 latency exceeded ${watchThresholds.apiLatencyP99Ms} ms`,
    });
  }

  /**
   * The vendor poller: devices it could not read in each of `vendorPollFailurePeriods` runs in a
   * row (its own count, functions/src/domain/metrics.ts; the function's errors are watched as every
   * function's are).
   */
  watchVendorPolling(metric: { namespace: string; dimensions: Record<string, string> }): void {
    const t = watchThresholds;
    this.alarm(
      'VendorPollFailures',
      new Metric({
        namespace: metric.namespace,
        metricName: 'Failed',
        dimensionsMap: metric.dimensions,
        period: Duration.minutes(5),
        statistic: 'Sum',
      }),
      {
        threshold: 1,
        evaluationPeriods: t.vendorPollFailurePeriods,
        description: `Third-party devices could not be read in their vendor's cloud for ${t.vendorPollFailurePeriods * 5} minutes (an outage or revoked credentials: see the vendor poller's log)`,
      },
    );
  }

  private alarm(
    id: string,
    metric: IMetric,
    options: { threshold: number; description: string; evaluationPeriods?: number },
  ): Alarm {
    const alarm = new Alarm(this, id, {
      metric,
      threshold: options.threshold,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `Argentum (${this.stack.stackName}): ${options.description}`,
    });
    // Its end too: a mailed alarm with no word of its recovery leaves the operator to look again.
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }

  private watchQueue(queue: Queue): void {
    const name = queue.node.path.replace(/^[^/]+\//, '').replace(/\//g, '-');
    if (queue.deadLetterQueue) {
      this.alarm(
        `${name}-Age`,
        queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
        {
          threshold: watchThresholds.queueAgeSeconds,
          description: `${queue.node.path}: the oldest message waited over ${watchThresholds.queueAgeSeconds} s (its consumer is behind or failing)`,
        },
      );
    } else {
      this.alarm(
        `${name}-Messages`,
        queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        {
          threshold: 1,
          description: `${queue.node.path}: dead-lettered or failed work is waiting (inspect, fix, redrive)`,
        },
      );
    }
  }

  private watchFunction(fn: PlatformFunction): void {
    const name = fn.node.path.replace(/^[^/]+\//, '').replace(/\//g, '-');
    this.alarm(
      `${name}-Errors`,
      fn.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      {
        threshold: 1,
        description: `${fn.node.path}: the function failed`,
      },
    );
    this.alarm(
      `${name}-Throttles`,
      fn.function.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
      { threshold: 1, description: `${fn.node.path}: invocations were throttled (concurrency)` },
    );
  }

  /**
   * Throttled requests of a table, reads and writes apart; for a provisioned table also consumed over
   * provisioned capacity (per second, over 5 minutes).
   */
  private watchTable(table: TableV2): void {
    const name = table.node.path.replace(/^[^/]+\//, '').replace(/\//g, '-');
    const period = Duration.minutes(5);
    const t = watchThresholds;
    for (const kind of ['Read', 'Write'] as const) {
      this.alarm(
        `${name}-${kind}Throttles`,
        table.metric(`${kind}ThrottleEvents`, { period, statistic: 'Sum' }),
        {
          threshold: t.tableThrottleEvents,
          evaluationPeriods: t.tableThrottlePeriods,
          description: `${table.node.path}: ${kind.toLowerCase()}s were throttled for ${t.tableThrottlePeriods * 5} minutes (retried and redelivered, nothing lost; its capacity is short)`,
        },
      );
    }
    const billing = (table.node.defaultChild as CfnGlobalTable).billingMode;
    if (billing !== 'PROVISIONED') return;
    for (const kind of ['Read', 'Write'] as const) {
      this.alarm(
        `${name}-${kind}CapacityUsed`,
        new MathExpression({
          expression: `100 * (consumed / ${period.toSeconds()}) / provisioned`,
          usingMetrics: {
            consumed: table.metric(`Consumed${kind}CapacityUnits`, { period, statistic: 'Sum' }),
            provisioned: table.metric(`Provisioned${kind}CapacityUnits`, { period, statistic: 'Average' }),
          },
          label: `${kind} capacity used (%)`,
          period,
        }),
        {
          threshold: t.capacityRatioPercent,
          evaluationPeriods: t.capacityRatioPeriods,
          description: `${table.node.path}: over ${t.capacityRatioPercent}% of its provisioned ${kind.toLowerCase()} capacity used for ${t.capacityRatioPeriods * 5} minutes (auto scaling at its maximum or held back)`,
        },
      );
    }
  }

  /** Each rule's error action log group: every event in it is a message the rule failed to deliver. */
  private watchRule(rule: CfnTopicRule): void {
    const payload = this.stack.resolve(rule.topicRulePayload) as {
      errorAction?: { cloudwatchLogs?: { logGroupName?: unknown } };
    };
    const target = JSON.stringify(payload.errorAction?.cloudwatchLogs?.logGroupName);
    const logGroup = this.stack.node
      .findAll()
      .find(
        (node): node is LogGroup =>
          node instanceof LogGroup && JSON.stringify(this.stack.resolve(node.logGroupName)) === target,
      );
    if (!logGroup) {
      throw new Error(
        `IoT rule ${rule.node.path} has no CloudWatch Logs error action into a log group of its stack: its failures would go unseen`,
      );
    }
    const metricName = `RuleFailures-${rule.node.path.replace(/\//g, '-')}`;
    new MetricFilter(this, `${metricName}-Filter`, {
      logGroup,
      filterPattern: FilterPattern.allEvents(),
      metricNamespace: PLATFORM_NAMESPACE,
      metricName,
      metricValue: '1',
    });
    this.alarm(
      metricName,
      new Metric({
        namespace: PLATFORM_NAMESPACE,
        metricName,
        period: Duration.minutes(5),
        statistic: 'Sum',
      }),
      {
        threshold: 1,
        description: `${rule.node.path}: the IoT rule failed to deliver messages (see its error log)`,
      },
    );
  }

  /** IoT Core, with its custom authorizer: refused connections, and messages discarded over quota. */
  private watchIotCore(authorizer: CfnAuthorizer): void {
    // IoT Core's quota of 100 publishes a second per connection, in and out (its message broker metrics).
    const throttled = (metricName: string) =>
      new Metric({
        namespace: 'AWS/IoT',
        metricName,
        dimensionsMap: { Protocol: 'MQTT' },
        period: Duration.minutes(5),
        statistic: 'Sum',
      });
    this.alarm('IotPublishInThrottled', throttled('PublishIn.Throttle'), {
      threshold: watchThresholds.throttledPublishesPerFiveMinutes,
      description:
        'IoT Core discarded messages a connection published past 100 a second (a misbehaving device lost readings or replies)',
    });
    this.alarm('IotPublishOutThrottled', throttled('PublishOut.Throttle'), {
      threshold: watchThresholds.throttledPublishesPerFiveMinutes,
      description:
        'IoT Core discarded messages to a connection past 100 a second (pages missed live values, command outcomes or notifications until their next read)',
    });
    this.alarm(
      `${authorizer.node.path.replace(/\//g, '-')}-Denials`,
      new Metric({
        namespace: 'AWS/IoT',
        metricName: 'Connect.AuthError',
        dimensionsMap: { Protocol: 'MQTT' },
        period: Duration.minutes(5),
        statistic: 'Sum',
      }),
      {
        threshold: watchThresholds.connectAuthErrorsPerFiveMinutes,
        description:
          'IoT Core refused many connection attempts (the realtime authorizer denied browser tokens, or device certificates were refused)',
      },
    );
  }

  /**
   * Lambda retries an asynchronous event twice, then drops it: the event lands in this queue instead,
   * with the error, for inspection and replay.
   */
  private addFailureDestination(fn: PlatformFunction): IQueue {
    const queue = new Queue(fn, 'AsyncFailures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeRule(
      queue,
      'SQS3',
      `This queue is the on-failure destination of ${fn.node.id}'s asynchronous invocations (events Lambda gave up on, with the error); nothing consumes it that could fail.`,
    );
    fn.function.configureAsyncInvoke({
      onFailure: new SqsDestination(queue),
      retryAttempts: asyncInvocations.retryAttempts,
      maxEventAge: Duration.hours(6),
    });
    return queue;
  }
}

/**
 * Whether something invokes the function asynchronously: a resource-based permission for an IoT
 * topic rule (an IoT custom authorizer's invocation is synchronous), EventBridge, S3 or SNS.
 */
export function invokedAsynchronously(fn: PlatformFunction, stack: Stack): boolean {
  const rules = new Set(
    stack.node
      .findAll()
      .filter((node): node is CfnTopicRule => node instanceof CfnTopicRule)
      .map((rule) => stack.resolve(stack.getLogicalId(rule)) as string),
  );
  // A permission may sit under the function or under its invoker (EventBridge rules put it there).
  const functionId = stack.resolve(stack.getLogicalId(fn.function.node.defaultChild as CfnElement)) as string;
  return stack.node
    .findAll()
    .filter((node): node is CfnPermission => node instanceof CfnPermission)
    .filter((permission) => {
      const target = stack.resolve(permission.functionName) as unknown;
      return JSON.stringify(target).includes(`"${functionId}"`);
    })
    .some((permission) => {
      const principal = stack.resolve(permission.principal) as unknown;
      if (typeof principal !== 'string') return false;
      if (asyncInvokers.includes(principal)) return true;
      if (principal !== 'iot.amazonaws.com') return false;
      const source = stack.resolve(permission.sourceArn) as { 'Fn::GetAtt'?: [string, string] } | undefined;
      const target = source?.['Fn::GetAtt']?.[0];
      return target !== undefined && rules.has(target);
    });
}

/** One dashboard of the platform's health: alarm states, API, Lambdas, queues, platform metrics. */
export function platformDashboard(
  scope: Construct,
  props: {
    alarms: IAlarm[];
    api: HttpApi;
    functions: PlatformFunction[];
    queues: IQueue[];
    /**
     * The platform's own metrics the Lambdas emit as embedded metric format, one graph each: its
     * title, namespace, counts and the dimensions every one carries.
     */
    platformMetrics: {
      title: string;
      namespace: string;
      names: readonly string[];
      dimensions: Record<string, string>;
    }[];
  },
): Dashboard {
  const stack = Stack.of(scope);
  const period = Duration.minutes(5);
  const dashboard = new Dashboard(scope, 'Dashboard', {
    dashboardName: `${stack.stackName}-${stack.region}-health`,
    defaultInterval: Duration.hours(24),
  });
  const label = (construct: IConstruct) => construct.node.path.replace(/^[^/]+\//, '');
  dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 24 }));
  dashboard.addWidgets(
    new GraphWidget({
      title: 'API requests and errors',
      left: [
        props.api.metricCount({ period, statistic: 'Sum' }),
        props.api.metricClientError({ period, statistic: 'Sum' }),
        props.api.metricServerError({ period, statistic: 'Sum' }),
      ],
      width: 12,
    }),
    new GraphWidget({
      title: 'API latency (p50, p99)',
      left: [
        props.api.metricLatency({ period, statistic: 'p50' }),
        props.api.metricLatency({ period, statistic: 'p99' }),
      ],
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Lambda errors',
      left: props.functions.map((fn) =>
        fn.function.metricErrors({ period, statistic: 'Sum', label: label(fn) }),
      ),
      width: 12,
    }),
    new GraphWidget({
      title: 'Lambda duration (p99)',
      left: props.functions.map((fn) =>
        fn.function.metricDuration({ period, statistic: 'p99', label: label(fn) }),
      ),
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Queues: oldest message (s)',
      left: props.queues.map((queue) =>
        queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum', label: label(queue) }),
      ),
      width: 24,
    }),
  );
  dashboard.addWidgets(
    ...props.platformMetrics.map(
      ({ title, namespace, names, dimensions }) =>
        new GraphWidget({
          title,
          left: names.map(
            (metricName) =>
              new Metric({ namespace, metricName, dimensionsMap: dimensions, period, statistic: 'Sum' }),
          ),
          width: 8,
        }),
    ),
  );
  return dashboard;
}

/**
 * The topic every alarm notifies. `alarmEmail` (context) subscribes an address; the subscriber confirms
 * it from the mail AWS sends. More subscribers (chat, paging) can be added to the topic by hand.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: { email?: string | undefined }) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', {
      displayName: `Argentum alarms (${Stack.of(this).stackName})`,
      enforceSSL: true,
    });
    acknowledgeRule(
      this.topic,
      'SNS2',
      'Alarm notifications carry only alarm names, states and thresholds, no platform data; CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a customer managed key for them adds cost and key administration without protecting anything.',
    );
    // enforceSSL writes a topic policy that replaces the default one, which let the account's services
    // publish: without this statement CloudWatch is refused every notification.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }
}
