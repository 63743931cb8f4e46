import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { ThrottlePolicy } from '@argentum/functions/domain/auth/ports';
import {
  archiveBucket,
  type BucketDefinition,
  buckets,
  filesBucket,
  corsMaxAgeSeconds,
  localTelemetryRuleName,
  platformTable,
  planRenditions,
  telemetryRollups as telemetryRollupsSource,
  telemetryTable,
  treeSweeps,
  userPool,
} from '../src/definitions';
import { startApiServer } from './api-server';
import { type Broker, startBroker } from './broker';
import { deviceSecretFor, writeDeviceAccess } from './device-credentials';
import { ENV, lambdaEnvironment } from '@argentum/functions/environment';
import type { ManagedChild } from './child';
import { startCognito } from './cognito';
import { HOST, type LocalPorts, repoRoot } from './config';
import { devices } from './demo-data';
import { startDynamoDb } from './dynamodb';
import { close, PortReservation } from './http-util';
import { startIotDataShim } from './iot-data-shim';
import { localMailQueueUrl, startMailQueue } from './mail-queue';
import { provisionTables, provisionUserPool } from './provision';
import { type LocalDeadLetter, startDeadLetterQueue, startRuleRunner } from './rule-runner';
import { LOCAL_ARCHIVE_STREAM, startLocalFirehose } from './firehose';
import {
  polledLink,
  VENDOR_POLL_INTERVAL_MINUTES,
  type VendorPollResult,
} from '@argentum/functions/domain/integrations/polling';
import { startConfirmationRule } from './confirmation-rule';
import { type SimulatorBehaviour, type SimulatorProfile, startSimulator } from './simulator';
import { seedDemoData } from './seed';
import { startS3Twin } from './s3-twin';
import { stopInTurn } from './shutdown';
import { startSesCapture } from './ses-capture';
import { startWeatherStandIn } from './weather-stand-in';
import { type StreamRunner, startStreamRunner } from './stream-runner';
import { makePlanSigningKeys } from './plan-edge';
import { startPlanRenditions } from './plan-renditions';
import {
  asFunction,
  describeRefusal,
  enforceFunctionGrants,
  functionCredentials,
  type Refusal,
  signerMayUpload,
} from './function-grants';
import { type FunctionName, senderAddress } from '../src/function-access';
import {
  LOCAL_PLAN_SIGNING_SECRET_ID,
  LOCAL_REALTIME_SIGNING_SECRET_ID,
  startVendorStandins,
} from './vendor-standins';

export interface LocalStackOptions {
  dataDir: string;
  /** A port of 0 picks a free one; any other is used as it is (the start fails when it is taken). */
  ports: LocalPorts;
  seed: boolean;
  demoPassword: string;
  historyDays: number;
  simulator: boolean;
  simulatorIntervalMs?: number;
  /** Seed of the simulator's random source; its misbehaviour (the realistic profile when not given). */
  simulatorSeed?: number;
  simulatorBehaviour?: SimulatorProfile | SimulatorBehaviour;
  staticDir?: string;
  /** DynamoDB Local without files: faster, for tests and benchmarks whose data is thrown away. */
  ephemeral?: boolean;
  /** Sign-in and reset-mail limits; production's when not given (tests use short locks). */
  throttlePolicy?: ThrottlePolicy;
  /** How often the presence sweep runs (AWS: every minute); 0: only when `sweepPresence` is called. */
  presenceSweepMs?: number;
  /** How often the vendor poller runs (AWS: every 5 minutes); 0: only when `pollVendors` is called. */
  vendorPollMs?: number;
}

export interface LocalStack {
  url: string;
  /** Where each service listens (a port asked for as 0 is the one picked). */
  ports: LocalPorts;
  /** The environment the handlers run with (what a Lambda would get, with local endpoints). */
  env: Record<string, string>;
  mailDir: string;
  broker: Broker;
  deviceSecret: string;
  seeded: boolean;
  /** Resolves when every telemetry message received so far has been ingested. */
  ingestDrained(): Promise<void>;
  /** Resolves when every telemetry message received so far is in the archive bucket. */
  archiveDrained(): Promise<void>;
  /** The telemetry rule's name, for Basic Ingest topics. */
  telemetryRuleName: string;
  /**
   * The telemetry table's stream as the roll-ups see it: `drained()` resolves when the roll-ups of
   * every raw reading written so far have been recomputed; `pause()` holds them (the readings wait
   * in the stream) until `resume()`.
   */
  rollups: Pick<StreamRunner, 'drained' | 'pause' | 'resume'>;
  /** Resolves when the renditions of every plan stored so far have been drawn. */
  planRenditionsDrawn(): Promise<void>;
  /** Delivers again the recent telemetry batches with a record containing `match` (at-least-once). */
  redeliverTelemetry(match: string): Promise<number>;
  /** What could not be stored, with its reason. */
  telemetryDeadLetters: LocalDeadLetter[];
  /** The platform table's stream as the Lambdas it feeds see it (the tree sweeper). */
  streams: Pick<StreamRunner, 'drained' | 'pause' | 'resume'>;
  /** Resolves when every mail job queued so far has been worked off. */
  mailDrained(): Promise<void>;
  /** Runs the presence sweep now, as the schedule would at `time` (tests drive its clock). */
  sweepPresence(time?: Date): Promise<{ looked: number; changed: number; digests: number }>;
  /** Runs the vendor poller now, as the schedule would at `time`. */
  pollVendors(time?: Date): Promise<VendorPollResult>;
  /** The stand-ins of the vendor clouds (Ryse, Nest, Ecobee) and of Secrets Manager. */
  vendorsUrl: string;
  /**
   * The requests a function made that its IAM role would not allow (function-grants.ts): each failed
   * with an AccessDeniedException, as on AWS.
   */
  accessRefusals: readonly Refusal[];
  stop(): Promise<void>;
}

/**
 * A scheduled function's twin: `run(time)` runs it as the schedule would at `time`, one run at a time;
 * every `everyMs` (0: never) a timer runs it; stopping waits for the run under way.
 */
function scheduled<Result>(
  name: FunctionName,
  handler: (event: { time: string }) => Promise<Result>,
  everyMs: number,
  stops: (() => Promise<void>)[],
): (time?: Date) => Promise<Result> {
  let running: Promise<unknown> = Promise.resolve();
  const run = (time = new Date()) => {
    const next = running.then(() => asFunction(name, () => handler({ time: time.toISOString() })));
    running = next.catch((error: unknown) => console.error(`${name} failed`, error));
    return next;
  };
  if (everyMs > 0) {
    const timer = setInterval(() => void run().catch(() => undefined), everyMs);
    stops.push(async () => {
      clearInterval(timer);
      await running;
    });
  }
  return run;
}

/** The services that run in this process; DynamoDB Local and cognito-local are child processes. */
const IN_PROCESS = ['app', 's3', 'mqtt', 'mqttWs', 'iotData', 'ses', 'sqs'] as const;
type InProcessService = (typeof IN_PROCESS)[number];

/**
 * The ports of the services in this process, each held from now until its server takes it (a port of
 * 0: a free one). Their ports are named before the servers start (the bucket's CORS rule names the
 * app's, the handlers' environment the shims'), and a port found free then released could be taken
 * before its server binds it, by a stack starting beside this one or any other process.
 */
async function holdPorts(ports: LocalPorts): Promise<Record<InProcessService, PortReservation>> {
  const held: Partial<Record<InProcessService, PortReservation>> = {};
  try {
    for (const service of IN_PROCESS) {
      held[service] = await PortReservation.hold(HOST, ports[service]).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Cannot listen on the ${service} port ${ports[service]}: ${reason}`, {
          cause: error,
        });
      });
    }
  } catch (error) {
    await Promise.all(Object.values(held).map((port) => port.release()));
    throw error;
  }
  return held as Record<InProcessService, PortReservation>;
}

/** The bucket's CORS rule as s3rver takes it (S3's XML), for the app's origins. */
function corsConfiguration(bucket: BucketDefinition, origins: string[]): string[] {
  if (!bucket.browserMethods?.length) return [];
  return [
    '<CORSConfiguration><CORSRule>' +
      origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('') +
      bucket.browserMethods.map((method) => `<AllowedMethod>${method}</AllowedMethod>`).join('') +
      `<MaxAgeSeconds>${corsMaxAgeSeconds}</MaxAgeSeconds>` +
      '</CORSRule></CORSConfiguration>',
  ];
}

// s3rver accepts only its own key pair; the other emulators accept any, so every local client uses it.
const awsCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
/** The platform's sender here; the local SES has verified its address, as a deploy's must be. */
const LOCAL_MAIL_FROM = 'Argentum <no-reply@argentum.local>';

/**
 * How long one part of the stack may take to stop: longer than the slowest function's timeout (a plan
 * drawing, infra/src/definitions.ts planRenditions), which the renditions twin lets finish.
 */
const STOP_PART_MS = (planRenditions.timeoutSeconds + 30) * 1000;

/** Starts the whole platform on this machine: emulators, handlers, API server, broker and devices. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  mkdirSync(options.dataDir, { recursive: true });
  const mailDir = path.join(options.dataDir, 'mail');
  const held = await holdPorts(options.ports);
  const accessRefusals: Refusal[] = [];
  const refusedByIam = (refusal: Refusal) => {
    accessRefusals.push(refusal);
    console.error(`refused by IAM: ${describeRefusal(refusal)}`);
  };
  const stops: (() => Promise<void>)[] = [
    // Last: the ports of the servers that never started.
    async () => {
      await Promise.all(Object.values(held).map((port) => port.release()));
    },
  ];
  const stopAll = async () => {
    await stopInTurn(stops.reverse(), STOP_PART_MS);
    stops.length = 0;
  };

  try {
    const children: ManagedChild[] = [];
    stops.push(async () => {
      await Promise.all(children.map((c) => c.stop()));
    });
    // Each is started once it says it listens on its port (for 0: a free one, another if it was taken).
    const [dynamodbLocal, cognitoLocal] = await Promise.allSettled([
      startDynamoDb(options.ports.dynamodb, options.dataDir, options.ephemeral ?? false),
      startCognito(options.ports.cognito, options.dataDir),
    ]);
    for (const child of [dynamodbLocal, cognitoLocal])
      if (child.status === 'fulfilled') children.push(child.value);
    if (dynamodbLocal.status === 'rejected') throw dynamodbLocal.reason;
    if (cognitoLocal.status === 'rejected') throw cognitoLocal.reason;
    const ports: LocalPorts = {
      app: held.app.port,
      dynamodb: dynamodbLocal.value.port,
      s3: held.s3.port,
      cognito: cognitoLocal.value.port,
      mqtt: held.mqtt.port,
      mqttWs: held.mqttWs.port,
      iotData: held.iotData.port,
      ses: held.ses.port,
      sqs: held.sqs.port,
    };

    // The app is opened as localhost or as 127.0.0.1; both may post uploads to the bucket.
    const appOrigins = [`http://localhost:${ports.app}`, `http://${HOST}:${ports.app}`];
    // The S3 endpoint: s3rver with S3's consistency, behind a gate that checks signatures, expiry and
    // POST policies as S3 does (s3-twin.ts), and the role of the function that signed an upload form.
    const s3 = await startS3Twin({
      host: HOST,
      port: held.s3,
      directory: path.join(options.dataDir, 's3'),
      buckets: buckets.map((b) => ({ name: b.localName, configs: corsConfiguration(b, appOrigins) })),
      credentials: {
        [awsCredentials.accessKeyId]: awsCredentials.secretAccessKey,
        ...functionCredentials(awsCredentials.secretAccessKey),
      },
      signerMayUpload: signerMayUpload(
        { files: filesBucket.localName, archive: archiveBucket.localName },
        refusedByIam,
      ),
      corsOrigins: appOrigins,
    });
    stops.push(() => s3.stop());

    // Kept from one start to the next (device-access.json), so provisioned devices stay admitted.
    const deviceSecret = deviceSecretFor(options.dataDir, options.ephemeral ?? false);
    const endpoint = (port: number) => `http://${HOST}:${port}`;
    const cognito = new CognitoIdentityProviderClient({
      endpoint: endpoint(ports.cognito),
      region: 'us-east-1',
      credentials: awsCredentials,
    });
    const dynamodb = new DynamoDBClient({
      endpoint: endpoint(ports.dynamodb),
      region: 'us-east-1',
      credentials: awsCredentials,
    });
    await provisionTables(dynamodb);
    dynamodb.destroy();
    const pool = await provisionUserPool(cognito, options.dataDir);

    const deadLetters = await startDeadLetterQueue();
    stops.push(() => deadLetters.stop());
    // The archive's Firehose stream (ingest sends it what it accepted): raw readings kept beyond the hot store.
    const archiveS3 = new S3Client({
      endpoint: endpoint(ports.s3),
      region: 'us-east-1',
      credentials: awsCredentials,
      forcePathStyle: true,
    });
    const archiveStream = await startLocalFirehose({ s3: archiveS3, bucket: archiveBucket.localName });
    stops.push(async () => {
      await archiveStream.stop();
      archiveS3.destroy();
    });
    const weather = await startWeatherStandIn();
    stops.push(() => close(weather.server));
    // Third-party clouds and the secrets holding their credentials (VENDOR_STANDINS_PORT, or a free port).
    // The real-time token-signing key pair (on AWS: constructs/realtime.ts). The API reads the private
    // half from its secret; the broker verifies signatures with the public half, as IoT Core does.
    const realtimeKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    // The floor plan URL signing key (on AWS: the distribution's key group, web-hosting.ts): the API
    // signs with the private half from its secret, the plan edge (plan-edge.ts) checks with the public.
    const planKeys = makePlanSigningKeys();
    const vendors = await startVendorStandins(Number(process.env.VENDOR_STANDINS_PORT ?? 0), {
      [LOCAL_REALTIME_SIGNING_SECRET_ID]: realtimeKeys.privateKey
        .export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      [LOCAL_PLAN_SIGNING_SECRET_ID]: planKeys.privateKeyPem,
    });
    stops.push(() => vendors.stop());

    const appOrigin = `http://localhost:${ports.app}`;
    const env: Record<string, string> = {
      ...lambdaEnvironment({
        platformTableName: platformTable.localName,
        telemetryTableName: telemetryTable.localName,
        filesBucketName: buckets[0]?.localName ?? 'files',
        archiveBucketName: archiveBucket.localName,
        userPoolId: pool.userPoolId,
        userPoolClientId: pool.userPoolClientId,
        tokenIssuer: `${endpoint(ports.cognito)}/${pool.userPoolId}`,
        mailFrom: LOCAL_MAIL_FROM,
        appOrigin,
        telemetryStore: 'dynamodb',
        refreshTokenValidityDays: userPool.refreshTokenValidityDays,
        iotDataEndpointUrl: endpoint(ports.iotData),
        mailQueueUrl: localMailQueueUrl(ports.sqs),
        telemetryDeadLetterQueueUrl: deadLetters.url,
        archiveStreamName: LOCAL_ARCHIVE_STREAM,
        telemetryRuleName: localTelemetryRuleName,
        weather: { city: weather.city, apiUrl: weather.url },
        throttlePolicy: options.throttlePolicy,
        // No CloudFront here: no request carries it, so the handlers count by the socket's address.
        originSecret: randomBytes(24).toString('hex'),
        // The demo organization is the one offered 'All device Data' exports here.
        allDeviceExportOrgId: 'org-demo',
        integrations: vendors.settings,
        realtimeSigningSecretId: LOCAL_REALTIME_SIGNING_SECRET_ID,
        planSigning: { secretId: LOCAL_PLAN_SIGNING_SECRET_ID, keyPairId: planKeys.keyPairId },
      }),
      // The local stand-ins for the AWS services, and the credentials they accept.
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: awsCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: awsCredentials.secretAccessKey,
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_ENDPOINT_URL_DYNAMODB: endpoint(ports.dynamodb),
      AWS_ENDPOINT_URL_S3: endpoint(ports.s3),
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: endpoint(ports.cognito),
      AWS_ENDPOINT_URL_SES: endpoint(ports.ses),
      AWS_ENDPOINT_URL_SQS: endpoint(ports.sqs),
      AWS_ENDPOINT_URL_FIREHOSE: archiveStream.url,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: vendors.secretsEndpoint,
      S3_FORCE_PATH_STYLE: 'true',
    };
    // The handlers run in this process, as each Lambda would, configured only by their environment.
    Object.assign(process.env, env);
    // ... and each with only what its IAM role allows it (function-grants.ts).
    await enforceFunctionGrants(refusedByIam);

    const broker = await startBroker({
      mqttPort: held.mqtt,
      wsPort: held.mqttWs,
      deviceSecret,
      telemetryRuleName: localTelemetryRuleName,
      realtimePublicKey: realtimeKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    stops.push(() => broker.close());
    writeDeviceAccess(options.dataDir, {
      mqttUrl: `mqtt://${HOST}:${ports.mqtt}`,
      deviceSecret,
      dynamodbEndpoint: endpoint(ports.dynamodb),
      platformTable: platformTable.localName,
      region: 'us-east-1',
      credentials: awsCredentials,
    });
    const servers: Server[] = [
      await startIotDataShim(held.iotData, broker),
      // The account's verified sender identity, as the deploy's `mailFrom` must be.
      await startSesCapture(held.ses, mailDir, [senderAddress(LOCAL_MAIL_FROM)]),
    ];
    stops.push(async () => {
      await Promise.all(servers.map(close));
    });

    // The files bucket's notification to the plan renditions function (CDK: stateless-stack.ts).
    const renditionTwin = await startPlanRenditions(s3.events, env[ENV.filesBucket] ?? '');
    stops.push(() => renditionTwin.stop());

    let seeded = false;
    if (options.seed) {
      const s3 = new S3Client({
        endpoint: endpoint(ports.s3),
        region: 'us-east-1',
        credentials: awsCredentials,
        forcePathStyle: true,
      });
      seeded = await seedDemoData({
        s3,
        password: options.demoPassword,
        historyDays: options.historyDays,
      });
      s3.destroy();
    }
    cognito.destroy();

    const ruleRunner = startRuleRunner(broker, deadLetters, localTelemetryRuleName);
    stops.push(() => ruleRunner.stop());
    const confirmationRule = startConfirmationRule(broker);
    stops.push(() => confirmationRule.stop());
    const mailJobs = await startMailQueue(held.sqs);
    stops.push(async () => {
      await mailJobs.stop();
      await close(mailJobs.server);
    });

    // The EventBridge schedules' twins are timers (one run at a time, as the schedule's minutes-apart
    // runs practically are): the presence sweep every minute, the vendor poller every 5 minutes.
    const { handler: presenceSweep } = await import('@argentum/functions/lambda/presence-sweep');
    const sweepPresence = scheduled(
      'presence-sweep',
      presenceSweep,
      options.presenceSweepMs ?? 60_000,
      stops,
    );
    const { handler: vendorPoller } = await import('@argentum/functions/lambda/vendor-poller');
    const pollEvery = options.vendorPollMs ?? VENDOR_POLL_INTERVAL_MINUTES * 60_000;
    const pollVendors = scheduled('vendor-poller', vendorPoller, pollEvery, stops);
    // The floors show what the vendors' clouds say from the start, not the seeded history's last value.
    if (pollEvery > 0) void pollVendors().catch(() => undefined);

    // The sweeper is imported now that the environment it reads is set.
    const { handler: treeSweeper } = await import('@argentum/functions/lambda/tree-sweeper');
    // The telemetry table's stream feeds the roll-ups, records handed on at once (no batching window here).
    const { handler: telemetryRollups } = await import('@argentum/functions/lambda/telemetry-rollups');
    const telemetryStreams = await startStreamRunner({
      client: { endpoint: endpoint(ports.dynamodb), region: 'us-east-1', credentials: awsCredentials },
      tableName: telemetryTable.localName,
      // Roll-ups may lag a moment; polling less leaves DynamoDB Local to the requests being measured.
      pollIntervalMs: 500,
      consumers: [
        {
          name: 'telemetry-rollups',
          handler: telemetryRollups,
          filter: telemetryRollupsSource.filter,
          batchSize: telemetryRollupsSource.batchSize,
          retryAttempts: telemetryRollupsSource.retryAttempts,
          timeoutSeconds: telemetryRollupsSource.timeoutSeconds,
        },
      ],
    });
    stops.push(() => telemetryStreams.stop());
    const streams = await startStreamRunner({
      client: { endpoint: endpoint(ports.dynamodb), region: 'us-east-1', credentials: awsCredentials },
      tableName: platformTable.localName,
      consumers: [
        {
          name: 'tree-sweeper',
          handler: treeSweeper,
          filter: treeSweeps.filter,
          batchSize: treeSweeps.batchSize,
          retryAttempts: treeSweeps.retryAttempts,
          timeoutSeconds: treeSweeps.timeoutSeconds,
        },
      ],
    });
    stops.push(() => streams.stop());

    const api = await startApiServer({
      port: held.app,
      staticDir: options.staticDir ?? path.join(repoRoot, 'frontend', 'dist'),
      tokenIssuer: env.TOKEN_ISSUER ?? '',
      userPoolClientId: pool.userPoolClientId,
      mailDir,
      realtimeUrl: `ws://${HOST}:${ports.mqttWs} ws://localhost:${ports.mqttWs}`,
      runtimeConfig: {
        region: 'us-east-1',
        userPoolId: pool.userPoolId,
        userPoolClientId: pool.userPoolClientId,
        realtimeUrl: `ws://${HOST}:${ports.mqttWs}/mqtt`,
      },
      streams,
      // Presigned upload forms and logo URLs name the S3 endpoint the handlers use.
      filesOrigin: endpoint(ports.s3),
      planKeys: new Map([[planKeys.keyPairId, planKeys.publicKey]]),
      planOrigin: appOrigin,
    });
    stops.push(() => close(api));

    if (options.simulator) {
      const simulator = await startSimulator({
        mqttUrl: `mqtt://${HOST}:${ports.mqtt}`,
        deviceSecret,
        // Third-party devices cannot publish: the vendor poller reads them in their (stand-in) clouds.
        devices: devices.filter((device) => !polledLink(device)),
        intervalMs: options.simulatorIntervalMs ?? 30_000,
        ...(options.simulatorSeed !== undefined ? { seed: options.simulatorSeed } : {}),
        ...(options.simulatorBehaviour ? { behaviour: options.simulatorBehaviour } : {}),
      });
      stops.push(() => simulator.stop());
    }

    return {
      url: appOrigin,
      ports,
      env,
      mailDir,
      broker,
      deviceSecret,
      seeded,
      ingestDrained: () => ruleRunner.drained(),
      archiveDrained: async () => {
        // Ingest sends the archive what it accepted: first every message meets its fate, then the buffer.
        await ruleRunner.drained();
        await archiveStream.drained();
      },
      telemetryRuleName: localTelemetryRuleName,
      rollups: telemetryStreams,
      planRenditionsDrawn: () => renditionTwin.idle(),
      redeliverTelemetry: (match) => ruleRunner.redeliver(match),
      telemetryDeadLetters: deadLetters.letters,
      streams,
      mailDrained: () => mailJobs.drained(),
      sweepPresence,
      pollVendors,
      vendorsUrl: vendors.url,
      accessRefusals,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
