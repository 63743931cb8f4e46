import { CustomResource, Duration, Stack } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnAuthorizer } from 'aws-cdk-lib/aws-iot';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { REALTIME_TOKEN_KEY_NAME } from '@argentum/contracts';
import { telemetryBatching } from '../../src/definitions';

/**
 * The telemetry event source's batch size for a batching window: a long window needs batches big
 * enough to hold it (SQS caps them at 10,000 and 6 MB), and without a window Lambda accepts at most 10
 * ("When you set BatchSize to a value greater than 10, you must set MaximumBatchingWindowInSeconds to
 * at least 1", AWS::Lambda::EventSourceMapping).
 */
function telemetryBatchSize(windowSeconds: number): number {
  if (windowSeconds === 0) return 10;
  return windowSeconds > telemetryBatching.maxBatchingWindowSeconds ? 10_000 : telemetryBatching.batchSize;
}

export interface RealtimeProps {
  ingest: IFunction;
  /** The telemetry queue the rule fills and its dead letters (stateful stack, TelemetryIntake). */
  telemetryQueue: IQueue;
  telemetryDeadLetters: IQueue;
  /**
   * How long the queue's event source gathers telemetry before it invokes ingest (s; default
   * `telemetryBatching.maxBatchingWindowSeconds`). Longer windows put several readings of each device
   * in one batch, so one roll-up and one latest-values write serve them all (docs/cost.md); stored
   * latest values and graphs are then up to that long behind.
   */
  batchingWindowSeconds?: number;
  authorizer: IFunction;
  /** Name of the IoT custom authorizer browsers connect through. */
  authorizerName: string;
  /**
   * Makes the token-signing key pair (lambda/realtime-signing-key.ts): stores the private key in
   * `signingKey` and answers the public key. Granted write on that secret only.
   */
  signingKeyMaker: IFunction;
  /** The secret the private key is kept in (the auth API function reads it to sign tokens). */
  signingKey: Secret;
}

/**
 * IoT Core wiring of the stateless stack: the telemetry queue (stateful stack) feeding ingest in
 * batches, and the custom authorizer that lets browsers connect over MQTT/WebSocket with a connection
 * token the API signed. The queue lets one ingest invocation store hundreds of readings at once; invoking a
 * Lambda per message would cost four writes per reading and cannot keep up with thousands a second.
 */
export class Realtime extends Construct {
  readonly telemetryQueue: IQueue;
  readonly telemetryDeadLetters: IQueue;
  readonly authorizer: CfnAuthorizer;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const window = props.batchingWindowSeconds ?? telemetryBatching.maxBatchingWindowSeconds;
    this.telemetryQueue = props.telemetryQueue;
    this.telemetryDeadLetters = props.telemetryDeadLetters;

    props.ingest.addEventSource(
      new SqsEventSource(this.telemetryQueue, {
        batchSize: telemetryBatchSize(window),
        maxBatchingWindow: Duration.seconds(window),
        reportBatchItemFailures: true,
      }),
    );

    // The key pair: the private half goes straight into the secret, the public half to the authorizer.
    const signingKey = new CustomResource(this, 'TokenSigningKey', {
      serviceToken: props.signingKeyMaker.functionArn,
      properties: { SecretId: props.signingKey.secretArn },
    });
    this.authorizer = new CfnAuthorizer(this, 'RealtimeAuthorizer', {
      authorizerName: props.authorizerName,
      authorizerFunctionArn: props.authorizer.functionArn,
      // Browsers present a connection token the API signed (POST /api/realtimeToken) in the MQTT user
      // name: IoT Core verifies its signature before it invokes the function, so junk connection
      // attempts never reach (nor bill) the authorizer.
      signingDisabled: false,
      tokenKeyName: REALTIME_TOKEN_KEY_NAME,
      tokenSigningPublicKeys: { realtime: signingKey.getAttString('PublicKey') },
      status: 'ACTIVE',
      enableCachingForHttp: false,
    });
    props.authorizer.addPermission('InvokeFromIotAuthorizer', {
      principal: new ServicePrincipal('iot.amazonaws.com'),
      sourceArn: this.authorizer.attrArn,
      sourceAccount: stack.account,
    });
  }
}
