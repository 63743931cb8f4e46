import { App, type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { type IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PlatformFunction, type PlatformResources } from '../../cdk/constructs/platform-function';
import { ruleErrorLogActions } from '../../cdk/constructs/rule-errors';
import { IOT_LOG_GROUP } from '../../cdk/constructs/iot-logging';
import {
  invokedAsynchronously,
  PLATFORM_NAMESPACE,
  Watch,
  watchThresholds,
} from '../../cdk/constructs/watch';
import { synthPlatform, type SynthesizedPlatform } from './synth';

type Resources = Record<string, { Properties: Record<string, unknown> }>;

let platform: SynthesizedPlatform;
let stateful: Template;
let stateless: Template;
beforeAll(() => {
  platform = synthPlatform({ context: { alarmEmail: 'ops@acme.example' } });
  stateful = Template.fromStack(platform.stateful);
  stateless = Template.fromStack(platform.stateless);
});

const logicalId = (construct: IConstruct) =>
  Stack.of(construct).resolve(Stack.of(construct).getLogicalId(construct as CfnElement)) as string;

/** The alarms of a template, with the metric they watch and where they notify. */
function alarms(template: Template) {
  return Object.values(template.findResources('AWS::CloudWatch::Alarm') as Resources).map(
    (alarm) =>
      alarm.Properties as {
        MetricName?: string;
        Namespace?: string;
        Dimensions?: { Name: string; Value: unknown }[];
        Threshold: number;
        AlarmActions: unknown[];
        OKActions?: unknown[];
      },
  );
}

const watches = (template: Template, metricName: string, dimension: unknown) =>
  alarms(template).some(
    (alarm) =>
      alarm.MetricName === metricName &&
      JSON.stringify(alarm.Dimensions ?? []).includes(JSON.stringify(dimension)),
  );

describe('alarms', () => {
  it('notify the one alarm topic, to which the alarmEmail address is subscribed, when they fire and when they end', () => {
    stateful.resourceCountIs('AWS::SNS::Topic', 1);
    stateful.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@acme.example',
    });
    const topic = { Ref: logicalId(platform.stateful.alarmTopic.topic.node.defaultChild as IConstruct) };
    for (const alarm of alarms(stateful)) {
      expect(alarm.AlarmActions).toEqual([topic]);
      expect(alarm.OKActions).toEqual([topic]);
    }
    const imported = { 'Fn::ImportValue': 'ArgentumStateful-AlarmTopicArn' };
    for (const alarm of alarms(stateless)) {
      expect(alarm.AlarmActions).toEqual([imported]);
      expect(alarm.OKActions).toEqual([imported]);
    }
  });

  it('watch every queue of both stacks: any message in a dead-letter queue, the age of a worked one', () => {
    for (const [stack, template] of [
      [platform.stateful, stateful],
      [platform.stateless, stateless],
    ] as const) {
      const queues = stack.node.findAll().filter((node): node is CfnQueue => node instanceof CfnQueue);
      expect(queues.length).toBeGreaterThan(0);
      for (const queue of queues) {
        const name = { 'Fn::GetAtt': [logicalId(queue), 'QueueName'] };
        const worked = queue.redrivePolicy !== undefined;
        expect(
          watches(
            template,
            worked ? 'ApproximateAgeOfOldestMessage' : 'ApproximateNumberOfMessagesVisible',
            name,
          ),
          queue.node.path,
        ).toBe(true);
      }
    }
    // Ingest's backlog: the telemetry queue's oldest message.
    const telemetryQueue = platform.stateful.telemetryIntake.queue.node.defaultChild as CfnQueue;
    expect(
      alarms(stateful).find(
        (alarm) =>
          alarm.MetricName === 'ApproximateAgeOfOldestMessage' &&
          JSON.stringify(alarm.Dimensions).includes(logicalId(telemetryQueue)),
      )?.Threshold,
    ).toBe(watchThresholds.queueAgeSeconds);
  });

  it('watch errors and throttles of every platform Lambda', () => {
    const functions = platform.stateless.node
      .findAll()
      .filter((node): node is PlatformFunction => node instanceof PlatformFunction);
    expect(functions.length).toBeGreaterThanOrEqual(15);
    for (const fn of functions) {
      const name = { Ref: logicalId(fn.function.node.defaultChild as IConstruct) };
      expect(watches(stateless, 'Errors', name), fn.node.path).toBe(true);
      expect(watches(stateless, 'Throttles', name), fn.node.path).toBe(true);
    }
  });

  it('watch every table for throttled reads and writes, and the provisioned telemetry table for capacity it cannot scale to', () => {
    const tableRef = (table: IConstruct) => ({ Ref: logicalId(table.node.defaultChild as IConstruct) });
    for (const table of [platform.stateful.platformTable, platform.stateful.telemetryTable]) {
      for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
        stateful.hasResourceProperties('AWS::CloudWatch::Alarm', {
          Namespace: 'AWS/DynamoDB',
          MetricName: metric,
          Dimensions: [{ Name: 'TableName', Value: tableRef(table) }],
          Statistic: 'Sum',
          Period: 300,
          Threshold: watchThresholds.tableThrottleEvents,
          EvaluationPeriods: watchThresholds.tableThrottlePeriods,
        });
      }
    }
    // Consumed over provisioned, per second over 5 minutes, for 15 minutes: only the provisioned table.
    const ratios = Object.values(stateful.findResources('AWS::CloudWatch::Alarm') as Resources)
      .map((alarm) => alarm.Properties)
      .filter((alarm) => Array.isArray(alarm.Metrics));
    expect(ratios).toHaveLength(2);
    for (const kind of ['Read', 'Write']) {
      const alarm = ratios.find((a) => JSON.stringify(a.Metrics).includes(`Consumed${kind}CapacityUnits`));
      expect(alarm, kind).toMatchObject({
        Threshold: watchThresholds.capacityRatioPercent,
        EvaluationPeriods: watchThresholds.capacityRatioPeriods,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      const metrics = JSON.stringify(alarm?.Metrics);
      expect(metrics).toContain('100 * (consumed / 300) / provisioned');
      expect(metrics).toContain(`Provisioned${kind}CapacityUnits`);
      expect(metrics).toContain(JSON.stringify(tableRef(platform.stateful.telemetryTable)));
      expect(metrics).not.toContain(JSON.stringify(tableRef(platform.stateful.platformTable)));
    }
  });

  it('watch the vendor poller: thermostats it could not read, runs in a row', () => {
    stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'Argentum/Vendors',
      MetricName: 'Failed',
      Threshold: 1,
      Period: 300,
      EvaluationPeriods: watchThresholds.vendorPollFailurePeriods,
      Dimensions: [{ Name: 'service', Value: 'argentum' }],
    });
  });

  it("watch the API's 5xx and p99 latency", () => {
    stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Threshold: watchThresholds.api5xxPerFiveMinutes,
    });
    stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: watchThresholds.apiLatencyP99Ms,
    });
  });

  it('watch connection attempts IoT Core refused (authorizer denials)', () => {
    stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/IoT',
      MetricName: 'Connect.AuthError',
      Dimensions: [{ Name: 'Protocol', Value: 'MQTT' }],
    });
  });

  it("watch the messages IoT Core discarded past a connection's 100 publishes a second, in and out", () => {
    for (const metricName of ['PublishIn.Throttle', 'PublishOut.Throttle'])
      stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/IoT',
        MetricName: metricName,
        Dimensions: [{ Name: 'Protocol', Value: 'MQTT' }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: watchThresholds.throttledPublishesPerFiveMinutes,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
  });

  it('watch every IoT rule through its error log: a metric filter counts each failure', () => {
    for (const [stack, template] of [
      [platform.stateful, stateful],
      [platform.stateless, stateless],
    ] as const) {
      const rules = stack.node.findAll().filter((node) => node instanceof CfnTopicRule);
      expect(rules.length).toBeGreaterThan(0);
      const filters = Object.values(template.findResources('AWS::Logs::MetricFilter') as Resources);
      expect(filters).toHaveLength(rules.length);
      for (const filter of filters) {
        const [transformation] = filter.Properties.MetricTransformations as { MetricName: string }[];
        expect(
          alarms(template).some(
            (alarm) =>
              alarm.Namespace === PLATFORM_NAMESPACE && alarm.MetricName === transformation?.MetricName,
          ),
        ).toBe(true);
      }
    }
  });
});

describe('asynchronous invocations', () => {
  it('give the confirmation Lambda (invoked by an IoT rule) an on-failure queue, which is watched', () => {
    const fn = platform.stateless.controlConfirmations.function;
    const config = Object.values(stateless.findResources('AWS::Lambda::EventInvokeConfig') as Resources);
    const own = config.find((c) =>
      JSON.stringify(c.Properties.FunctionName).includes(logicalId(fn.node.defaultChild as IConstruct)),
    );
    expect(own?.Properties).toMatchObject({
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [expect.any(String), 'Arn'] } } },
    });
    const queueId = (
      own?.Properties as { DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [string] } } } }
    ).DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
    expect(stateless.toJSON().Resources[queueId].Type).toBe('AWS::SQS::Queue');
    expect(
      watches(stateless, 'ApproximateNumberOfMessagesVisible', { 'Fn::GetAtt': [queueId, 'QueueName'] }),
    ).toBe(true);
    // The Lambda may send to it.
    expect(JSON.stringify(stateless.findResources('AWS::IAM::Policy'))).toContain('sqs:SendMessage');
  });

  it('leave synchronously invoked Lambdas alone (the IoT custom authorizer, API handlers)', () => {
    const config = JSON.stringify(stateless.findResources('AWS::Lambda::EventInvokeConfig'));
    for (const fn of [platform.stateless.realtimeAuthorizer, platform.stateless.apiFunctions.auth]) {
      expect(config).not.toContain(logicalId(fn.function.node.defaultChild as IConstruct));
    }
  });
});

describe('IoT rule error actions', () => {
  it('may create, describe and write log streams, as AWS lists for the CloudWatch Logs action', () => {
    expect(ruleErrorLogActions).toEqual([
      'logs:CreateLogStream',
      'logs:DescribeLogStreams',
      'logs:PutLogEvents',
    ]);
    for (const template of [stateful, stateless]) {
      const roles = Object.entries(template.findResources('AWS::IAM::Role') as Resources).filter(([id]) =>
        /RuleErrorRole/.test(id),
      );
      expect(roles.length).toBeGreaterThan(0);
      for (const [id] of roles) {
        template.hasResourceProperties('AWS::IAM::Policy', {
          Roles: [{ Ref: id }],
          PolicyDocument: {
            Statement: Match.arrayWith([
              Match.objectLike({ Action: Match.arrayWith(['logs:DescribeLogStreams']) }),
            ]),
          },
        });
      }
    }
  });
});

describe('IoT Core logging and the dashboard', () => {
  it('logs IoT Core at ERROR into AWSIotLogsV2 with a retention, through its own role', () => {
    stateful.hasResourceProperties('AWS::IoT::Logging', {
      AccountId: { Ref: 'AWS::AccountId' },
      DefaultLogLevel: 'ERROR',
      RoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('IotLoggingRole'), 'Arn'] },
    });
    stateful.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: IOT_LOG_GROUP,
      RetentionInDays: 30,
    });
  });

  it('takes another level from context, and refuses an unknown one', () => {
    const verbose = synthPlatform({ context: { iotLogLevel: 'WARN' } });
    Template.fromStack(verbose.stateful).hasResourceProperties('AWS::IoT::Logging', {
      DefaultLogLevel: 'WARN',
    });
    expect(() => synthPlatform({ context: { iotLogLevel: 'LOUD' } })).toThrow(/iotLogLevel/);
    // No address, no subscription.
    Template.fromStack(verbose.stateful).resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('has one dashboard, named with its region (names are per account), with the platform counts', () => {
    stateless.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(stateless.findResources('AWS::CloudWatch::Dashboard'));
    // Each count as the Lambdas send it: its namespace, name and Powertools' `service` dimension.
    const graphed = (namespace: string, metric: string) =>
      JSON.stringify(JSON.stringify([namespace, metric, 'service', 'argentum'])).slice(2, -2);
    for (const metric of ['Stored', 'DeadLettered'])
      expect(body).toContain(graphed('Argentum/Telemetry', metric));
    for (const outcome of ['Sent', 'Confirmed', 'ConfirmedLate', 'Failed', 'TimedOut', 'RefusedOffline'])
      expect(body).toContain(graphed('Argentum/Commands', outcome));
    expect(body).toContain(graphed('Argentum/Alarms', 'Raised'));
    for (const title of ['Commands by outcome', 'Alarms raised and cleared']) expect(body).toContain(title);
    stateless.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardName: 'ArgentumStateless-eu-west-1-health',
    });
  });
});

describe('resources added later are watched without edits', () => {
  it('gives a Lambda that EventBridge invokes (a scheduled sweep) an on-failure queue and alarms on it', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Sweeps', { env: { region: 'eu-west-1', account: '111111111111' } });
    const resources: PlatformResources = {
      platformTableName: 'platform',
      telemetryTableName: 'telemetry',
      filesBucketName: 'files',
      archiveBucketName: 'archive',
      userPoolId: 'pool',
      userPoolClientId: 'client',
      telemetryStore: 'dynamodb',
      mailFrom: 'no-reply@example.com',
      appOrigin: 'https://app.example.com',
      iotDataEndpoint: 'abc-ats.iot.eu-west-1.amazonaws.com',
    };
    const sweep = new PlatformFunction(stack, 'PresenceSweep', {
      entry: 'tree-sweeper',
      description: 'a scheduled sweep',
      resources,
      access: {},
    });
    new Rule(stack, 'EveryMinute', {
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(sweep.function)],
    });
    const topic = new Topic(stack, 'Alarms');
    expect(invokedAsynchronously(sweep, stack)).toBe(true);
    new Watch(stack, 'Watch', { topic });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
    const metrics = alarms(template).map((alarm) => alarm.MetricName);
    expect(metrics).toEqual(
      expect.arrayContaining(['Errors', 'Throttles', 'ApproximateNumberOfMessagesVisible']),
    );
  });
});

describe('alarm notifications', () => {
  type Statement = {
    Effect: string;
    Principal?: { Service?: string | string[] };
    Action: string | string[];
    Resource?: unknown;
    Condition?: Record<string, Record<string, unknown>>;
  };
  const asList = <T>(value: T | T[] | undefined): T[] =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];

  /** Every synthesized template of the platform, with its stack. */
  function templates() {
    return [platform.stateful, platform.stateless, platform.edge].map((stack) => {
      const json = Template.fromStack(stack).toJSON() as {
        Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
        Outputs?: Record<string, { Value: unknown; Export?: { Name: unknown } }>;
      };
      return { stack, json };
    });
  }

  /** The template and logical id of the SNS topic an alarm action names, following Fn::ImportValue. */
  function topicOf(
    action: unknown,
    home: ReturnType<typeof templates>[number],
    all: ReturnType<typeof templates>,
  ) {
    const isTopic = (t: (typeof all)[number], ref: unknown) =>
      typeof ref === 'object' &&
      ref !== null &&
      'Ref' in ref &&
      t.json.Resources[(ref as { Ref: string }).Ref]?.Type === 'AWS::SNS::Topic'
        ? { template: t, id: (ref as { Ref: string }).Ref }
        : undefined;
    if (typeof action === 'object' && action !== null && 'Fn::ImportValue' in action) {
      const name = (action as { 'Fn::ImportValue': unknown })['Fn::ImportValue'];
      for (const t of all)
        for (const output of Object.values(t.json.Outputs ?? {}))
          if (JSON.stringify(output.Export?.Name) === JSON.stringify(name)) return isTopic(t, output.Value);
      return undefined;
    }
    return isTopic(home, action);
  }

  it('reach their topic: its policy lets CloudWatch alarms of this account publish, and it is not on the AWS managed key', () => {
    const all = templates();
    const checked = new Map<string, number>();
    for (const home of all) {
      for (const [id, resource] of Object.entries(home.json.Resources)) {
        if (!['AWS::CloudWatch::Alarm', 'AWS::CloudWatch::CompositeAlarm'].includes(resource.Type)) continue;
        const props = resource.Properties ?? {};
        const actions = ['AlarmActions', 'OKActions', 'InsufficientDataActions'].flatMap((key) =>
          asList(props[key] as unknown[] | undefined),
        );
        for (const action of actions) {
          // Only SNS topics here; other actions (Auto Scaling, EC2) do not go through a topic policy.
          if (JSON.stringify(action).match(/arn:aws:(automate|autoscaling|ssm)/)) continue;
          const topic = topicOf(action, home, all);
          expect(topic, `${home.stack.stackName}/${id}: ${JSON.stringify(action)}`).toBeDefined();
          if (!topic) continue;
          const { template, id: topicId } = topic;
          const topicRef = { Ref: topicId };
          const policies = Object.values(template.json.Resources).filter(
            (r) =>
              r.Type === 'AWS::SNS::TopicPolicy' &&
              asList(r.Properties?.Topics as unknown[]).some(
                (t) => JSON.stringify(t) === JSON.stringify(topicRef),
              ),
          );
          const statements = policies.flatMap((p) =>
            asList((p.Properties?.PolicyDocument as { Statement: Statement[] }).Statement),
          );
          const allowsAlarms = statements.some(
            (s) =>
              s.Effect === 'Allow' &&
              asList(s.Principal?.Service).includes('cloudwatch.amazonaws.com') &&
              asList(s.Action).includes('sns:Publish') &&
              asList(s.Resource).some((r) => JSON.stringify(r) === JSON.stringify(topicRef)) &&
              JSON.stringify(s.Condition?.StringEquals?.['aws:SourceAccount']) ===
                JSON.stringify(template.stack.resolve(template.stack.account)) &&
              JSON.stringify(s.Condition?.ArnLike?.['aws:SourceArn']).includes(':cloudwatch:') &&
              JSON.stringify(s.Condition?.ArnLike?.['aws:SourceArn']).includes(':alarm:*'),
          );
          expect(
            allowsAlarms,
            `${home.stack.stackName}/${id} -> ${template.stack.stackName}/${topicId}`,
          ).toBe(true);
          // CloudWatch cannot publish to a topic encrypted with the AWS managed key alias/aws/sns.
          expect(
            JSON.stringify(template.json.Resources[topicId]?.Properties?.KmsMasterKeyId ?? ''),
          ).not.toContain('alias/aws/sns');
          checked.set(home.stack.stackName, (checked.get(home.stack.stackName) ?? 0) + 1);
        }
      }
    }
    // Both stacks' alarms (the stateless ones through the export): not a pass over no alarms at all.
    expect(checked.get(platform.stateful.stackName)).toBeGreaterThan(0);
    expect(checked.get(platform.stateless.stackName)).toBeGreaterThan(0);
  });
});
