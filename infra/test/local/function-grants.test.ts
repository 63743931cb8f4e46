import {
  alarmDeviceOf,
  comfortObservations,
  observeDevice,
  raiseOfflineEpisode,
  raiseRepeatingEvent,
} from '@argentum/functions/domain/notifications/alarms';
import { handler as mailerHandler } from '@argentum/functions/lambda/mailer';
import type { SQSRecord } from 'aws-lambda';
import { observePresence } from '@argentum/functions/domain/devices/presence';
import { queueDueDigests } from '@argentum/functions/domain/notifications/alarm-mail';
import { sqsMailQueue } from '@argentum/functions/adapters/job-queue';
import { dynamoAlarmMailRate } from '@argentum/functions/stores/alarms';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { keys } from '@argentum/functions/stores/keys';
import { alarmPorts } from '@argentum/functions/lambda/wiring/notifications';
import { presencePorts } from '@argentum/functions/lambda/wiring/presence';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteConnectionCommand, IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { topics } from '@argentum/contracts/messaging';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../functions/test/support/api';
import { announce } from '../../../functions/test/support/control';
import { sweepWatched } from '../../../functions/test/support/presence-sweep';
import { newDevices, newPlace, type Place } from '../../../functions/test/platform/devices-fixtures';
import {
  asFunction,
  enforceIotGrants,
  enforceS3Grants,
  enforceTableGrants,
  functionAccessKeyId,
  functionCredentials,
  serviceGrantsCheck,
  serviceNamesOf,
  invokedAs,
  type Refusal,
  signerMayUpload,
  tableTouches,
} from '../../local/function-grants';
import { postUpload, startTestS3, twinCredentials } from '../support/s3-twin';
import { archiveBucket, filesBucket, platformTable, telemetryTable } from '../../src/definitions';
import { FLOOR_PLAN_STAGING_PREFIX } from '@argentum/functions/domain/files/keys';
import {
  type FunctionName,
  functionAccess,
  matchesResource,
  tableAccessAllows,
  tableGrants,
  type TableTouch,
} from '../../src/function-access';

const MINUTE = 60_000;
const tableNames = { platform: platformTable.localName, telemetry: telemetryTable.localName };
const mailer = invokedAs('mailer', mailerHandler);

/** The touches `name`'s role would not allow (infra/src/function-access.ts). */
const refusedTo = (name: FunctionName, touches: readonly TableTouch[]) => {
  const grants = tableGrants(functionAccess[name]);
  return touches.filter((touch) => !tableAccessAllows(grants, touch));
};

/**
 * The functions with partition-key-scoped grants (`dynamodb:LeadingKeys`) run their use cases here as
 * the local stack runs them (as their functions, whose every request the local stack weighs against
 * their roles: function-grants.ts). Every platform-table request they make is also recorded, to show
 * that the flows reached what they are meant to check and that each request is one their roles allow.
 */
describe('the platform-table grants of alarms, presence and mail', () => {
  const touches: TableTouch[] = [];
  let recording = false;
  let place: Place;
  let adminEmail: string;

  beforeAll(async () => {
    place = await newPlace('Grants Org');
    adminEmail = (await createUser({ [place.orgId]: 2 })).email;
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        if (recording && context.commandName) {
          touches.push(
            ...tableTouches(context.commandName, args.input as Record<string, unknown>, tableNames),
          );
        }
        return next(args);
      },
      // After the document client marshalled the input: the low-level request, as IAM sees it.
      { step: 'build', name: 'tableGrantsRecorder' },
    );
  });
  afterAll(() => {
    dynamo().middlewareStack.remove('tableGrantsRecorder');
  });

  it('allow every request of a comfort alarm raised and resolved, a repeated device event and an offline episode', async () => {
    const [room] = await newDevices(place, [{ devType: 5, devName: 'Grants room' }], place.floorId);
    if (!room) throw new Error('no device');
    const alarms = alarmPorts();
    const device = alarmDeviceOf(room);
    const t0 = Date.UTC(2026, 10, 23, 9, 0);
    const reading = (minute: number, temp: number) =>
      observeDevice(alarms, device, comfortObservations(device, t0 + minute * MINUTE, { temp }), t0);
    const presence = presencePorts();
    recording = true;
    // As the confirmation handler wires them (comfort alarms are ingest's, whose role has the whole
    // table; these statements are the narrowest that raise them).
    await asFunction('control-confirmations', async () => {
      await reading(0, 35);
      expect(await reading(10, 35)).toMatchObject({ open: true });
      expect(await reading(11, 23)).toMatchObject({ open: false });
      const failure = { kind: 'pairing', type: 2 as const, message: 'Pairing failed', time: t0 };
      expect(await raiseRepeatingEvent(alarms, device, failure)).toBe(true);
      const offAt = t0 + 20 * MINUTE;
      await observePresence(presence, room.devID, { kind: 'announced', online: false, at: offAt }, offAt);
      const tick = offAt + 60 * MINUTE;
      expect(await observePresence(presence, room.devID, { kind: 'tick', at: tick }, tick)).toMatchObject({
        online: false,
      });
      const back = tick + MINUTE;
      expect(
        await observePresence(presence, room.devID, { kind: 'announced', online: true, at: back }, back),
      ).toMatchObject({ online: true });
    }).finally(() => {
      recording = false;
    });
    const actions = new Set(touches.map((t) => `${t.action} ${t.pk?.replace(/#.*/, '#')}`));
    // The flow reached what it is meant to check: notifications, the episode claim, inboxes, state.
    expect([...actions]).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem EPISODE#',
        'dynamodb:PutItem NOTIF#',
        'dynamodb:PutItem INBOX#',
        'dynamodb:UpdateItem NOTIF#',
        'dynamodb:PutItem ALARMS#',
        'dynamodb:UpdateItem DEVICE#',
      ]),
    );
    expect(refusedTo('control-confirmations', touches)).toEqual([]);
  });

  it("allow every request of the confirmation handler's announcements and of the presence sweep", async () => {
    const [lamp, shade] = await newDevices(
      place,
      [
        { devType: 3, devName: 'Grants lamp' },
        { devType: 3, devName: 'Grants shade' },
      ],
      place.floorId,
    );
    if (!lamp || !shade) throw new Error('no devices');
    // The sweep as the schedule runs it, on this organization's devices only.
    const sweep = async (time: number) => {
      await sweepWatched((d) => d.orgID === place.orgId, time);
      await asFunction('presence-sweep', () =>
        queueDueDigests({ alarmMailRate: dynamoAlarmMailRate, alarmMail: sqsMailQueue }, time),
      );
    };
    const t0 = Date.now();
    const recorded = async (work: () => Promise<unknown>) => {
      touches.length = 0;
      recording = true;
      try {
        await work();
      } finally {
        recording = false;
      }
      return [...touches];
    };
    // The lamp's offline episode is raised and closed by its own announcements; the shade's is
    // raised by the sweep once its grace period is over.
    const confirmed = await recorded(async () => {
      await announce(place.orgId, lamp.devID, false, t0);
      await announce(place.orgId, lamp.devID, false, t0 + 20 * MINUTE);
      await announce(place.orgId, lamp.devID, true, t0 + 2 * 60 * MINUTE);
      await announce(place.orgId, shade.devID, false, t0);
    });
    const swept = await recorded(async () => {
      for (const minutes of [1, 11, 30]) await sweep(t0 + minutes * MINUTE);
    });
    const reached = (touches: readonly TableTouch[]) =>
      new Set(touches.map((t) => `${t.action} ${t.pk?.replace(/#.*/, '#')}`));
    expect([...reached(confirmed)]).toEqual(
      expect.arrayContaining([
        'dynamodb:UpdateItem NOTIF#',
        'dynamodb:PutItem EPISODE#',
        'dynamodb:UpdateItem DEVICE#',
      ]),
    );
    expect([...reached(swept)]).toEqual(
      expect.arrayContaining([
        'dynamodb:BatchGetItem DEVICE#',
        'dynamodb:PutItem EPISODE#',
        'dynamodb:PutItem NOTIF#',
      ]),
    );
    expect(refusedTo('control-confirmations', confirmed)).toEqual([]);
    expect(refusedTo('presence-sweep', swept)).toEqual([]);
  });

  it("allow every request of the mailer's alarm mail and password-reset mail", async () => {
    const [sensor] = await newDevices(place, [{ devType: 5, devName: 'Grants sensor' }], place.floorId);
    if (!sensor) throw new Error('no device');
    const since = Date.now();
    const notificationId = await raiseOfflineEpisode(alarmPorts(), alarmDeviceOf(sensor), since, since);
    const job = (body: object, messageId: string) => ({ messageId, body: JSON.stringify(body) }) as SQSRecord;
    touches.length = 0;
    recording = true;
    try {
      expect(
        await mailer({
          Records: [
            job({ kind: 'alarm', notificationId }, 'alarm'),
            job({ kind: 'password-reset', email: adminEmail }, 'reset'),
          ],
        }),
      ).toEqual({ batchItemFailures: [] });
    } finally {
      recording = false;
    }
    const reached = new Set(touches.map((t) => `${t.action} ${t.index ?? t.pk?.replace(/#.*/, '#')}`));
    expect([...reached]).toEqual(
      expect.arrayContaining([
        'dynamodb:Query gsi1',
        'dynamodb:PutItem ALARMMAIL#',
        'dynamodb:PutItem TOKEN#',
      ]),
    );
    expect(refusedTo('mailer', touches)).toEqual([]);
  });
});

/**
 * The local stack's stand-in for IAM (function-grants.ts) on DynamoDB Local: what a function's role
 * does not allow fails as AWS answers it, and nothing of it is written. On its own client, so that
 * these refusals are not the worker's (which must have none).
 */
describe("the local stack's DynamoDB, as a function's role allows it", () => {
  const refusals: Refusal[] = [];
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  enforceTableGrants(client, tableNames, (refusal) => refusals.push(refusal));
  const table = config.platformTable;
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const item = (pk: string) => ({ pk, sk: 'GRANTS', note: stamp });
  const exists = async (pk: string) =>
    (await client.send(new GetCommand({ TableName: table, Key: { pk, sk: 'GRANTS' } }))).Item !== undefined;
  const denied = (name: FunctionName, action: string) =>
    expect.objectContaining({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: expect.objectContaining({ httpStatusCode: 400 }),
      message: expect.stringContaining(
        `assumed-role/${name}/${name} is not authorized to perform: ${action} on resource: ` +
          `arn:aws:dynamodb:local:000000000000:table/${table}`,
      ),
    });

  it('refuses a write to a function whose role only reads, and writes nothing', async () => {
    const pk = `GRANTS#read-${stamp}`;
    await expect(
      asFunction('api-data', () => client.send(new PutCommand({ TableName: table, Item: item(pk) }))),
    ).rejects.toEqual(denied('api-data', 'dynamodb:PutItem'));
    expect(await exists(pk)).toBe(false);
    // Its reads go through; a function whose role writes the table writes; so does the administrator.
    await asFunction('api-data', () => client.send(new GetCommand({ TableName: table, Key: keys.org('x') })));
    await asFunction('api-tree', () => client.send(new PutCommand({ TableName: table, Item: item(pk) })));
    expect(await exists(pk)).toBe(true);
    await client.send(new PutCommand({ TableName: table, Item: item(`${pk}-admin`) }));
    expect(await exists(`${pk}-admin`)).toBe(true);
    expect(refusals.map((r) => [r.functionName, r.command, r.touch.action])).toEqual([
      ['api-data', 'PutItemCommand', 'dynamodb:PutItem'],
    ]);
  });

  it('holds a write scoped to a key prefix to that prefix, each item of a batch or transaction alike', async () => {
    const devId = `grants-${stamp}`;
    const command = { ...keys.command(devId, 'c1'), note: stamp };
    // The control API writes commands only.
    await asFunction('api-control', () => client.send(new PutCommand({ TableName: table, Item: command })));
    await expect(
      asFunction('api-control', () =>
        client.send(new PutCommand({ TableName: table, Item: { ...keys.device(devId), note: stamp } })),
      ),
    ).rejects.toEqual(denied('api-control', 'dynamodb:PutItem'));
    // A transaction is weighed action by action: the confirmation handler may update a device and
    // put a command, but not put a user.
    const update = {
      Update: {
        TableName: table,
        Key: keys.command(devId, 'c1'),
        UpdateExpression: 'SET note = :n',
        ExpressionAttributeValues: { ':n': 'settled' },
      },
    };
    await asFunction('control-confirmations', () =>
      client.send(new TransactWriteCommand({ TransactItems: [update] })),
    );
    await expect(
      asFunction('control-confirmations', () =>
        client.send(
          new TransactWriteCommand({
            TransactItems: [
              update,
              { Put: { TableName: table, Item: { ...keys.user(devId), note: stamp } } },
            ],
          }),
        ),
      ),
    ).rejects.toEqual(denied('control-confirmations', 'dynamodb:PutItem'));
    // A batch read is weighed key by key: the vendor poller reads devices, not users.
    const devices = { [table]: { Keys: [keys.device(devId), keys.device(`${devId}-2`)] } };
    await asFunction('vendor-poller', () => client.send(new BatchGetCommand({ RequestItems: devices })));
    await expect(
      asFunction('vendor-poller', () =>
        client.send(
          new BatchGetCommand({
            RequestItems: { [table]: { Keys: [keys.device(devId), keys.user(devId)] } },
          }),
        ),
      ),
    ).rejects.toEqual(denied('vendor-poller', 'dynamodb:BatchGetItem'));
    // So is a batch write, by its own action: a role that only reads may not make one.
    await expect(
      asFunction('api-floorplans', () =>
        client.send(
          new BatchWriteCommand({ RequestItems: { [table]: [{ PutRequest: { Item: item(devId) } }] } }),
        ),
      ),
    ).rejects.toEqual(denied('api-floorplans', 'dynamodb:BatchWriteItem'));
    const settled = await client.send(new GetCommand({ TableName: table, Key: keys.command(devId, 'c1') }));
    expect(settled.Item?.note).toBe('settled');
  });

  it('holds a query to the index and the partition key its role names', async () => {
    // The mailer finds users by e-mail on gsi1, and reads the members of an organization.
    const byEmail = {
      TableName: table,
      IndexName: 'gsi1',
      KeyConditionExpression: '#k = :e',
      ExpressionAttributeNames: { '#k': 'gsi1pk' },
      ExpressionAttributeValues: { ':e': `EMAIL#nobody-${stamp}@example.com` },
    };
    await asFunction('mailer', () => client.send(new QueryCommand(byEmail)));
    const partition = (pk: string) => ({
      TableName: table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
    });
    await asFunction('mailer', () => client.send(new QueryCommand(partition(keys.membersPartition('o')))));
    await expect(
      asFunction('mailer', () => client.send(new QueryCommand(partition(keys.device('o').pk)))),
    ).rejects.toEqual(denied('mailer', 'dynamodb:Query'));
    // The roll-ups touch the telemetry table alone.
    await expect(
      asFunction('telemetry-rollups', () => client.send(new QueryCommand(partition(keys.device('o').pk)))),
    ).rejects.toEqual(denied('telemetry-rollups', 'dynamodb:Query'));
  });
});

describe('the touches IAM weighs', () => {
  const names = { platform: 'platform', telemetry: 'telemetry' };
  it('name the partition key of a query through its attribute names, and of the index it reads', () => {
    const query = (input: Record<string, unknown>) => tableTouches('QueryCommand', input, names);
    expect(
      query({
        TableName: 'platform',
        KeyConditionExpression: '#p = :v AND begins_with(sk, :s)',
        ExpressionAttributeNames: { '#p': 'pk' },
        ExpressionAttributeValues: { ':v': { S: 'DEVICE#1' }, ':s': { S: 'X' } },
      }),
    ).toEqual([{ action: 'dynamodb:Query', table: 'platform', pk: 'DEVICE#1' }]);
    expect(
      query({
        TableName: 'platform',
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :v',
        ExpressionAttributeValues: { ':v': { S: 'EMAIL#a' } },
      }),
    ).toEqual([{ action: 'dynamodb:Query', table: 'platform', index: 'gsi1', pk: 'EMAIL#a' }]);
    // The telemetry table's partition key is its series.
    expect(
      tableTouches(
        'GetItemCommand',
        { TableName: 'telemetry', Key: { series: { S: 'd#raw' }, t: { N: '1' } } },
        names,
      ),
    ).toEqual([{ action: 'dynamodb:GetItem', table: 'telemetry', pk: 'd#raw' }]);
    // A table no role names is no table of theirs.
    expect(tableTouches('PutItemCommand', { TableName: 'other', Item: { pk: { S: 'x' } } }, names)).toEqual([
      { action: 'dynamodb:PutItem' },
    ]);
  });

  it('allow a scan under a key-prefix condition, as IAM evaluates ForAllValues over no keys', () => {
    const grants = tableGrants({
      platformTableStatements: [{ actions: ['dynamodb:Scan'], partitionKeyPrefix: 'A#' }],
    });
    expect(tableAccessAllows(grants, { action: 'dynamodb:Scan', table: 'platform' })).toBe(true);
    expect(tableAccessAllows(grants, { action: 'dynamodb:Scan', table: 'platform', index: 'gsi1' })).toBe(
      false,
    );
    expect(tableAccessAllows(grants, { action: 'dynamodb:Scan', table: 'telemetry' })).toBe(false);
  });
});

/** The same for the IoT data plane: publishes by topic, connections closed by client id. */
describe("the local stack's IoT data plane, as a function's role allows it", () => {
  const refusals: Refusal[] = [];
  const client = new IoTDataPlaneClient({});
  enforceIotGrants(client, (refusal) => refusals.push(refusal));
  const forbidden = (name: FunctionName, action: string, resource: string) =>
    expect.objectContaining({
      name: 'ForbiddenException',
      $metadata: expect.objectContaining({ httpStatusCode: 403 }),
      message: expect.stringContaining(
        `assumed-role/${name}/${name} is not authorized to perform: ${action} on resource: ` +
          `arn:aws:iot:local:000000000000:${resource}`,
      ),
    });
  const publish = (topic: string) =>
    new PublishCommand({ topic, qos: 1, payload: new TextEncoder().encode('{}') });

  it('refuses a publish to a topic the role does not name, and a connection it may not close', async () => {
    const stamp = `grants-${Date.now()}`;
    // The control API publishes commands, and nothing else.
    await asFunction('api-control', () => client.send(publish(topics.control(stamp, 'd1'))));
    await expect(
      asFunction('api-control', () => client.send(publish(topics.notification(stamp)))),
    ).rejects.toEqual(forbidden('api-control', 'iot:Publish', `topic/${topics.notification(stamp)}`));
    // Only the functions that take access away close connections, and only browsers'.
    await expect(
      asFunction('api-data', () => client.send(new DeleteConnectionCommand({ clientId: `web-${stamp}` }))),
    ).rejects.toEqual(forbidden('api-data', 'iot:DeleteConnection', `client/web-${stamp}`));
    await expect(
      asFunction('api-auth', () => client.send(new DeleteConnectionCommand({ clientId: stamp }))),
    ).rejects.toEqual(forbidden('api-auth', 'iot:DeleteConnection', `client/${stamp}`));
    expect(refusals.map((r) => r.touch.action)).toEqual([
      'iot:Publish',
      'iot:DeleteConnection',
      'iot:DeleteConnection',
    ]);
  });

  it("match topics as IAM matches a resource's wildcards", () => {
    const ingestTopic = '$aws/rules/argentum_telemetry/*/sensordata/*';
    expect(matchesResource(ingestTopic, '$aws/rules/argentum_telemetry/o1/sensordata/d1')).toBe(true);
    expect(matchesResource(ingestTopic, 'o1/sensordata/d1')).toBe(false);
    // `*` spans levels (it is no MQTT `+`); `?` is one character; the rest is literal.
    expect(matchesResource('*/live/*', 'o1/live/f1/extra')).toBe(true);
    expect(matchesResource('o?/live', 'o1/live')).toBe(true);
    expect(matchesResource('o.1', 'ox1')).toBe(false);
  });
});

/** And S3: the files bucket by key prefix (and suffix), the archive by its root, listings too. */
describe("the local stack's S3, as a function's role allows it", () => {
  const refusals: Refusal[] = [];
  const client = new S3Client({ forcePathStyle: config.s3ForcePathStyle });
  enforceS3Grants(client, { files: filesBucket.localName, archive: archiveBucket.localName }, (refusal) =>
    refusals.push(refusal),
  );
  const files = config.filesBucket;
  const stamp = `grants-${Date.now()}`;
  const denied = (name: FunctionName, action: string, resource: string) =>
    expect.objectContaining({
      name: 'AccessDenied',
      $metadata: expect.objectContaining({ httpStatusCode: 403 }),
      message: expect.stringContaining(
        `assumed-role/${name}/${name} is not authorized to perform: ${action} on resource: arn:aws:s3:::${resource}`,
      ),
    });
  const exists = (key: string) =>
    client.send(new HeadObjectCommand({ Bucket: files, Key: key })).then(
      () => true,
      () => false,
    );
  const put = (key: string) => new PutObjectCommand({ Bucket: files, Key: key, Body: 'x' });

  it('holds object requests to the key prefixes and suffixes of the role', async () => {
    const plan = `floorplans/${stamp}/f1/plan.svg`;
    const rendition = `floorplans/${stamp}/f1/800.webp`;
    // The floors API only reads plans; the plan commit writes them.
    await expect(asFunction('api-floors', () => client.send(put(plan)))).rejects.toEqual(
      denied('api-floors', 's3:PutObject', `${files}/${plan}`),
    );
    expect(await exists(plan)).toBe(false);
    await asFunction('api-floorplans', () => client.send(put(plan)));
    await asFunction('plan-renditions', () => client.send(put(rendition)));
    await asFunction('api-floors', () => client.send(new GetObjectCommand({ Bucket: files, Key: plan })));
    // The renditions function deletes renditions only.
    await expect(
      asFunction('plan-renditions', () => client.send(new DeleteObjectCommand({ Bucket: files, Key: plan }))),
    ).rejects.toEqual(denied('plan-renditions', 's3:DeleteObject', `${files}/${plan}`));
    await asFunction('plan-renditions', () =>
      client.send(new DeleteObjectCommand({ Bucket: files, Key: rendition })),
    );
    expect([await exists(plan), await exists(rendition)]).toEqual([true, false]);
    // A read link is the signer's read: refused when the role may not read the key.
    const logo = new GetObjectCommand({ Bucket: files, Key: `logos/${stamp}.png` });
    await expect(asFunction('api-floors', () => getSignedUrl(client, logo))).rejects.toEqual(
      denied('api-floors', 's3:GetObject', `${files}/logos/${stamp}.png`),
    );
    await asFunction('api-users', () => getSignedUrl(client, logo));
  });

  it('lists the archive of readings under its root only, and for the data API only', async () => {
    const list = (Prefix?: string) =>
      new ListObjectsV2Command({ Bucket: config.archiveBucket, ...(Prefix !== undefined ? { Prefix } : {}) });
    await asFunction('api-data', () => client.send(list('readings/org=none/')));
    await expect(asFunction('api-data', () => client.send(list()))).rejects.toEqual(
      denied('api-data', 's3:ListBucket', config.archiveBucket),
    );
    await expect(asFunction('api-tree', () => client.send(list('readings/')))).rejects.toEqual(
      denied('api-tree', 's3:ListBucket', config.archiveBucket),
    );
    expect(refusals.map((r) => r.touch.action)).toEqual(
      expect.arrayContaining(['s3:PutObject', 's3:DeleteObject', 's3:GetObject', 's3:ListBucket']),
    );
  });
});

/**
 * And the upload forms the functions presign: no command sends them, so the S3 twin's gate weighs
 * each by the role of the function that signed it (its access key), as S3 asks IAM of the signer.
 */
describe("the local stack's S3 upload forms, as the signing function's role allows them", () => {
  const BUCKET = 'grants-upload-files';
  const names = { files: BUCKET, archive: 'grants-upload-archive' };
  const refusals: Refusal[] = [];
  let s3: Awaited<ReturnType<typeof startTestS3>>;
  let client: S3Client;
  beforeAll(async () => {
    s3 = await startTestS3(BUCKET, undefined, {
      credentials: functionCredentials(twinCredentials.secretAccessKey),
      signerMayUpload: signerMayUpload(names, (refusal) => refusals.push(refusal)),
    });
    client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: twinCredentials,
    });
    enforceS3Grants(client, names);
  });
  afterAll(async () => {
    client.destroy();
    await s3.stop();
  });
  const stored = (key: string) =>
    client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
      () => true,
      () => false,
    );
  const form = (key: string) =>
    createPresignedPost(client, {
      Bucket: BUCKET,
      Key: key,
      Fields: { 'Content-Type': 'image/svg+xml' },
      Conditions: [['content-length-range', 1, 100]],
      Expires: 60,
    });
  const post = (upload: { url: string; fields: Record<string, string> }) => postUpload(upload, 6);

  it('refuses a form its signer may not put (403 AccessDenied), stores nothing, and takes the others', async () => {
    const key = `${FLOOR_PLAN_STAGING_PREFIX}o1/${Date.now()}.svg`;
    // The floors API reads plans only: a form it signs names its own key, and is refused.
    const foreign = await asFunction('api-floors', () => form(key));
    expect(foreign.fields['X-Amz-Credential']).toMatch(new RegExp(`^${functionAccessKeyId('api-floors')}/`));
    expect(await post(foreign)).toEqual([403, 'AccessDenied']);
    expect(await stored(key)).toBe(false);
    expect(refusals).toEqual([
      {
        functionName: 'api-floors',
        command: 'PostObject',
        touch: { action: 's3:PutObject', bucket: 'files', key },
        resource: `arn:aws:s3:::${BUCKET}/${key}`,
      },
    ]);
    // The plan uploads' function may put staged plans; a form signed by no function is the account's.
    expect(await post(await asFunction('api-floorplans', () => form(key)))).toEqual([204, '']);
    expect(await stored(key)).toBe(true);
    expect(await post(await form(`${FLOOR_PLAN_STAGING_PREFIX}o1/admin.svg`))).toEqual([204, '']);
    expect(refusals).toHaveLength(1);
  });
});

/** And the user pool's admin actions, mail, the platform's queues and its secrets. */
describe("the local stack's Cognito, SES, SQS and Secrets Manager, as a function's role allows them", () => {
  const refusals: Refusal[] = [];
  const settings = serviceNamesOf(process.env);
  const step = 'build' as const;
  const record = (refusal: Refusal) => refusals.push(refusal);
  const cognito = new CognitoIdentityProviderClient({});
  cognito.middlewareStack.add(serviceGrantsCheck('cognito-idp', settings, record), { step, name: 'check' });
  const ses = new SESClient({});
  ses.middlewareStack.add(serviceGrantsCheck('ses', settings, record), { step, name: 'check' });
  const sqs = new SQSClient({});
  sqs.middlewareStack.add(serviceGrantsCheck('sqs', settings, record), { step, name: 'check' });
  const refusedAs = (name: FunctionName, action: string) => ({
    message: expect.stringContaining(`assumed-role/${name}/${name} is not authorized to perform: ${action}`),
  });
  const mail = (Source: string) =>
    new SendEmailCommand({
      Source,
      Destination: { ToAddresses: ['grants@example.com'] },
      Message: { Subject: { Data: 'Grants' }, Body: { Text: { Data: 'Grants' } } },
    });

  it("holds the user pool's admin actions to the account functions", async () => {
    const lookUp = new AdminGetUserCommand({
      UserPoolId: config.userPoolId,
      Username: `nobody-${Date.now()}`,
    });
    await expect(asFunction('api-data', () => cognito.send(lookUp))).rejects.toEqual(
      expect.objectContaining({
        name: 'AccessDeniedException',
        ...refusedAs('api-data', 'cognito-idp:AdminGetUser'),
      }),
    );
    // The users API may look users up: the pool answers that there is no such user.
    await expect(asFunction('api-users', () => cognito.send(lookUp))).rejects.toEqual(
      expect.objectContaining({ name: 'UserNotFoundException' }),
    );
  });

  it('sends mail only from the functions that mail, and only from the platform sender', async () => {
    await asFunction('mailer', () => ses.send(mail(config.mailFrom)));
    await expect(asFunction('mailer', () => ses.send(mail('someone@example.org')))).rejects.toEqual(
      expect.objectContaining({ name: 'AccessDenied', ...refusedAs('mailer', 'ses:SendEmail') }),
    );
    await expect(asFunction('api-auth', () => ses.send(mail(config.mailFrom)))).rejects.toEqual(
      expect.objectContaining(refusedAs('api-auth', 'ses:SendEmail')),
    );
  });

  it('queues mail jobs only from the functions that queue them', async () => {
    const job = new SendMessageCommand({
      QueueUrl: config.mailQueueUrl,
      MessageBody: JSON.stringify({ kind: 'password-reset', email: `nobody-${Date.now()}@example.com` }),
    });
    await asFunction('api-auth', () => sqs.send(job));
    await expect(asFunction('api-data', () => sqs.send(job))).rejects.toEqual(
      expect.objectContaining({ name: 'AccessDenied', ...refusedAs('api-data', 'sqs:SendMessage') }),
    );
    expect(refusals.map((r) => `${r.functionName} ${r.touch.action}`)).toEqual([
      'api-data cognito-idp:AdminGetUser',
      'mailer ses:SendEmail',
      'api-auth ses:SendEmail',
      'api-data sqs:SendMessage',
    ]);
  });

  it('reads a secret only in the functions that use it, and stores a value only where the role may', async () => {
    const secrets = new SecretsManagerClient({});
    secrets.middlewareStack.add(serviceGrantsCheck('secretsmanager', settings, record), {
      step,
      name: 'check',
    });
    const read = (SecretId: string | undefined) => new GetSecretValueCommand({ SecretId });
    const { planSigningKey, realtimeSigningKey, ecobee } = settings.secrets;
    // The plan URL key: the plan functions read it; the data API does not.
    expect((await asFunction('api-floors', () => secrets.send(read(planSigningKey)))).SecretString).toContain(
      'PRIVATE KEY',
    );
    await expect(asFunction('api-data', () => secrets.send(read(planSigningKey)))).rejects.toEqual(
      expect.objectContaining({
        name: 'AccessDeniedException',
        ...refusedAs('api-data', 'secretsmanager:GetSecretValue'),
      }),
    );
    // The auth API reads the real-time key; only the deploy-time key maker stores it.
    const key = await asFunction('api-auth', () => secrets.send(read(realtimeSigningKey)));
    const again = new PutSecretValueCommand({ SecretId: realtimeSigningKey, SecretString: key.SecretString });
    await expect(asFunction('api-auth', () => secrets.send(again))).rejects.toEqual(
      expect.objectContaining(refusedAs('api-auth', 'secretsmanager:PutSecretValue')),
    );
    await asFunction('realtime-signing-key', () => secrets.send(again));
    // A vendor's credentials: the vendors' functions only.
    await asFunction('vendor-poller', () => secrets.send(read(ecobee)));
    await expect(asFunction('api-users', () => secrets.send(read(ecobee)))).rejects.toEqual(
      expect.objectContaining(refusedAs('api-users', 'secretsmanager:GetSecretValue')),
    );
    expect(refusals.slice(4)).toEqual([
      expect.objectContaining({
        functionName: 'api-data',
        touch: { action: 'secretsmanager:GetSecretValue', secret: 'planSigningKey' },
      }),
      expect.objectContaining({
        functionName: 'api-auth',
        touch: { action: 'secretsmanager:PutSecretValue', secret: 'realtimeSigningKey' },
      }),
      expect.objectContaining({
        functionName: 'api-users',
        touch: { action: 'secretsmanager:GetSecretValue', secret: 'ecobee' },
      }),
    ]);
    secrets.destroy();
  });
});
