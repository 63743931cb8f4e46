import { randomUUID } from 'node:crypto';
import {
  DeleteConnectionCommand,
  PublishCommand,
  IoTDataPlaneClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-iot-data-plane';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { topics } from '@argentum/contracts/messaging';
import { iotConnectionCloser } from '@argentum/functions/adapters/iot-connections';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import type { LogLevel } from '@argentum/functions/domain/ports';
import { systemClock } from '@argentum/functions/domain/ports';
import { revokeRealtimeAccess } from '@argentum/functions/domain/realtime/revocation';
import {
  authorizeRealtime,
  DISCONNECT_AFTER_SECONDS,
  REAUTHORIZE_AFTER_SECONDS,
} from '@argentum/functions/domain/realtime/authorizer';
import { handler as realtimeAuthorizerHandler } from '@argentum/functions/lambda/realtime-authorizer';
import type { RealtimeConnection } from '@argentum/functions/domain/realtime/ports';
import { leaveOrganization } from '@argentum/functions/domain/users/membership';
import {
  CONNECTION_TOKEN_SECONDS,
  decodeConnectionToken,
} from '@argentum/functions/domain/realtime/connection-token';
import { dynamoConnectionRegistry } from '@argentum/functions/stores/connections';
import { keys } from '@argentum/functions/stores/keys';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import { ITEM_DELETED_TEXT, USER_DELETED_TEXT, USER_ROLE_UPDATED_TEXT } from '@argentum/contracts';
import { seriesKey } from '@argentum/functions/stores/telemetry-dynamodb';
import { readMailbox } from '../../local/ses-capture';
import { connectLocalDevice } from '../../local/device-credentials';
import {
  REALTIME_CONNECT_INTERVAL_MS,
  REALTIME_MAX_ORGS,
  REALTIME_TEXTS,
  realtimeUsername,
} from '@argentum/contracts';
import { call, createUser, signIn, stack } from '../../../functions/test/support/api';
import {
  browserClientId,
  connectBrowser,
  connectWs as connectRaw,
  mintConnectionToken,
} from '../../../functions/test/support/realtime';
import { invokedAs } from '../../local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const authorizerLambda = invokedAs('realtime-authorizer', realtimeAuthorizerHandler);

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync()));
});

/** A device's own connection: bound to its organization and id (a fresh id unless given). */
async function device(orgId = 'org-demo', devId = `rt-${randomUUID().slice(0, 8)}`): Promise<MqttClient> {
  const client = await connectLocalDevice(`mqtt://127.0.0.1:${stack.mqttPort}`, stack.deviceSecret, {
    orgId,
    devId,
  });
  clients.push(client);
  return client;
}

const browserId = browserClientId;
const connectionToken = mintConnectionToken;

/** A browser's connection (closed after each test): a signed connection token for the client id. */
async function browser(accessToken: string, clientId = browserId(), orgIds?: string[]): Promise<MqttClient> {
  const client = await connectBrowser(accessToken, { clientId, ...(orgIds ? { orgIds } : {}) });
  clients.push(client);
  return client;
}

/** A connection with a user name of the test's making (tracked like the others). */
async function connectWs(username: string, clientId: string): Promise<MqttClient> {
  const client = await connectRaw(username, clientId);
  clients.push(client);
  return client;
}

const waitUntil = async <T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A connection subscribed to organizations' notification topics, keeping the markers it receives. */
interface Watcher {
  client: MqttClient;
  received: string[];
  /** Set when the connection closes; the tests never end a watched connection themselves. */
  closed: boolean;
}

async function watch(connecting: Promise<MqttClient>, orgIds: string[]): Promise<Watcher> {
  const client = await connecting;
  const watcher: Watcher = { client, received: [], closed: false };
  client.on('message', (_topic, payload) => {
    watcher.received.push(String((JSON.parse(payload.toString()) as { marker?: unknown }).marker));
  });
  client.on('close', () => (watcher.closed = true));
  for (const orgId of orgIds) await client.subscribeAsync(topics.notification(orgId));
  return watcher;
}

/**
 * Publishes a marker on an organization's notification topic, as the platform's functions publish
 * (the IoT data plane: the broker has taken it before the next one is sent); answers the marker.
 */
async function announce(orgId: string): Promise<string> {
  const marker = `${orgId}/${randomUUID().slice(0, 8)}`;
  await new IoTDataPlaneClient({}).send(
    new PublishCommand({
      topic: topics.notification(orgId),
      qos: 1,
      payload: Buffer.from(JSON.stringify({ marker })),
    }),
  );
  return marker;
}

const arrives = (watcher: Watcher, marker: string) =>
  waitUntil(async () => (watcher.received.includes(marker) ? true : undefined));

/** Fresh organization ids: real-time topics only need the ids. */
const orgPair = () => {
  const suffix = randomUUID().slice(0, 8);
  return { a: `rt-a-${suffix}`, b: `rt-b-${suffix}` };
};

describe('telemetry ingest (IoT rule -> ingest handler)', () => {
  it('stores a reading as raw point and hourly roll-up, and records the device latest values', async () => {
    const devId = '00:1A:22:01:05:03'; // IEQLounge, Demo Org
    // An hour five days back, inside ingest's window: the device's live readings are in the current one.
    const hourStart = Math.floor((Date.now() - 5 * 24 * 3_600_000) / 3_600_000) * 3_600_000;
    const time = hourStart + 17 * 60_000;
    const publisher = await device('org-demo', devId);
    await publisher.publishAsync(
      topics.sensorData('org-demo', devId),
      JSON.stringify({ devID: devId, devType: 5, time, values: { temp: 23.5, co2: 640 } }),
    );
    const raw = await waitUntil(async () => {
      const { Item } = await dynamo().send(
        new GetCommand({
          TableName: config.telemetryTable,
          Key: { series: seriesKey(devId, 'raw'), t: time },
        }),
      );
      return Item;
    });
    expect(raw.v).toEqual({ temp: 23.5, co2: 640 });
    // The roll-up is written in the same batch, right after the raw points: wait for it too.
    const hour = await waitUntil(async () => {
      const { Item } = await dynamo().send(
        new GetCommand({
          TableName: config.telemetryTable,
          Key: { series: seriesKey(devId, 'hour'), t: hourStart },
        }),
      );
      return Item;
    });
    expect(hour).toMatchObject({ sum_temp: 23.5, count_temp: 1, sum_co2: 640, count_co2: 1 });
  });

  it('drops readings for a device of another organization, and payloads that are not readings', async () => {
    const foreign = '00:1B:33:00:05:03'; // IEQStorage belongs to Other Org
    const time = Date.now() - 120_000;
    // A thing whose organization attribute is wrong (the broker admits it to org-demo's topics):
    // ingest still checks the device's registration.
    const misfiled = await device('org-demo', foreign);
    await misfiled.publishAsync(
      topics.sensorData('org-demo', foreign),
      JSON.stringify({ devID: foreign, devType: 5, time, values: { temp: 99 } }),
      { qos: 1 },
    );
    const x = `x-${randomUUID().slice(0, 8)}`;
    const stranger = await device('org-demo', x);
    await stranger.publishAsync(topics.sensorData('org-demo', x), 'not json', { qos: 1 });
    await stranger.publishAsync(
      topics.sensorData('org-demo', x),
      JSON.stringify({ devID: x, values: 'nope' }),
      { qos: 1 },
    );
    // A later valid reading proves the earlier ones were processed (acknowledged by one broker, in order).
    const marker = Date.now() - 60_000;
    const own = '00:1A:22:01:04:02';
    const publisher = await device('org-demo', own);
    await publisher.publishAsync(
      topics.sensorData('org-demo', own),
      JSON.stringify({ devID: own, devType: 4, time: marker, values: { mState: 1 } }),
      { qos: 1 },
    );
    await waitUntil(async () => {
      const { Item } = await dynamo().send(
        new GetCommand({
          TableName: config.telemetryTable,
          Key: { series: seriesKey(own, 'raw'), t: marker },
        }),
      );
      return Item;
    });
    await new Promise((r) => setTimeout(r, 300));
    const stored = await dynamo().send(
      new QueryCommand({
        TableName: config.telemetryTable,
        KeyConditionExpression: 'series = :s AND t = :t',
        ExpressionAttributeValues: { ':s': seriesKey(foreign, 'raw'), ':t': time },
      }),
    );
    expect(stored.Items).toEqual([]);
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.device(foreign) }),
    );
    expect(Item?.latest?.temp).not.toBe(99);
  });
});

describe('real-time access (the IoT custom authorizer guards the broker)', () => {
  it("lets a signed-in browser receive what its pages show, never devices' words nor other users' or organizations'", async () => {
    const viewer = await createUser(0, ['org-demo']);
    const other = await createUser(1, ['org-demo']);
    const { accessToken } = await signIn(viewer.email, viewer.password);
    const client = await browser(accessToken);
    for (const filter of [
      topics.floorLive('org-demo', 'floor-1'),
      'org-demo/live/+',
      topics.commandStatus('org-demo', viewer.userId),
      topics.notification('org-demo'),
    ]) {
      expect((await client.subscribeAsync(filter))[0]?.qos, filter).toBe(0);
    }
    // Refused subscriptions come back as SUBACK failures (128), which mqtt.js reports as errors.
    for (const filter of [
      topics.controlSuccess('org-demo'),
      topics.controlFail('org-demo'),
      topics.control('org-demo', 'd1'),
      topics.sensorData('org-demo', 'd1'),
      'org-demo/sensordata/+',
      'org-demo/#',
      topics.commandStatus('org-demo', other.userId),
      'org-demo/commandstatus/+',
      topics.notification('org-other'),
      topics.floorLive('org-other', 'floor-1'),
      '+/controldata/success',
    ]) {
      await expect(client.subscribeAsync(filter), filter).rejects.toThrow(/Subscribe error/);
    }
    expect(client.connected).toBe(true);

    const received: string[] = [];
    client.on('message', (topic, payload) => received.push(`${topic} ${payload.toString()}`));
    // A device's word on its organization's topic reaches no page; what the platform publishes does.
    const publisher = await device();
    await publisher.publishAsync(
      topics.controlSuccess('org-demo'),
      JSON.stringify({ action: 'success', devID: 'd1', val: 1 }),
      { qos: 1 },
    );
    const plane = new IoTDataPlaneClient({});
    for (const topic of [
      topics.commandStatus('org-demo', other.userId),
      topics.commandStatus('org-demo', viewer.userId),
    ])
      await plane.send(new PublishCommand({ topic, qos: 1, payload: Buffer.from('{"n":1}') }));
    await waitUntil(async () => (received.length > 0 ? true : undefined));
    expect(received).toEqual([`${topics.commandStatus('org-demo', viewer.userId)} {"n":1}`]);
  });

  it('refuses a connection without a valid access token, and a device with a wrong credential', async () => {
    await expect(browser('not-a-token')).rejects.toThrow();
    await expect(connectWs('browser', browserId())).rejects.toThrow();
    await expect(
      connectAsync(`mqtt://127.0.0.1:${stack.mqttPort}`, {
        username: 'd1',
        clientId: 'd1',
        password: 'org-demo:wrong',
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow();
  });

  it('does not let a browser publish commands or fake device confirmations', async () => {
    const { accessToken } = await signIn('owner@example.com');
    const client = await browser(accessToken);
    const watcher = await device('org-demo', 'd1');
    await watcher.subscribeAsync(topics.control('org-demo', 'd1'));
    const delivered: string[] = [];
    watcher.on('message', (_t, payload) => delivered.push(payload.toString()));
    await client
      .publishAsync(topics.control('org-demo', 'd1'), JSON.stringify({ cmnd: 54, val: 1 }))
      .catch(() => undefined);
    // A command sent the legitimate way (the API's IoT data-plane publish) does arrive.
    await new IoTDataPlaneClient({}).send(
      new PublishCommand({ topic: topics.control('org-demo', 'd1'), payload: Buffer.from('{"from":"api"}') }),
    );
    await waitUntil(async () => (delivered.length > 0 ? true : undefined));
    expect(delivered).toEqual(['{"from":"api"}']);
  });
});

describe('revoking access reaches connections that are already open', () => {
  /**
   * A browser of `token` subscribed to `orgIds`, that has received a message of `cut` (the organization
   * about to be revoked); a probe: another user's browser subscribed to a sentinel organization of its
   * own, which no revocation of the test touches (devices may not subscribe to confirmations).
   */
  async function openScene(token: string, cut: string, orgIds: string[]) {
    const watcher = await watch(browser(token), orgIds);
    const sentinel = `rt-s-${randomUUID().slice(0, 8)}`;
    const member = await createUser(0, [sentinel]);
    const probe = await watch(browser((await signIn(member.email, member.password)).accessToken), [sentinel]);
    await arrives(watcher, await announce(cut));
    return { watcher, probe, sentinel, cut };
  }

  /**
   * The broker closed the connection, and a message published to `cut` after that did not reach it:
   * once the sentinel's message, published after it was acknowledged, has arrived, it has been routed.
   */
  async function expectCutOff(scene: Awaited<ReturnType<typeof openScene>>) {
    await waitUntil(async () => (scene.watcher.closed ? true : undefined));
    const receivedBefore = [...scene.watcher.received];
    await announce(scene.cut);
    await arrives(scene.probe, await announce(scene.sentinel));
    expect(scene.watcher.received).toEqual(receivedBefore);
  }

  /** Reconnecting with the same token (what a browser does) is admitted for `granted` only. */
  async function expectReconnect(
    token: string,
    { granted, refused }: { granted: string[]; refused: string[] },
  ) {
    const again = await watch(browser(token), granted);
    for (const orgId of refused) {
      await expect(again.client.subscribeAsync(topics.notification(orgId))).rejects.toThrow(
        /Subscribe error/,
      );
    }
    const missed: string[] = [];
    for (const orgId of refused) missed.push(await announce(orgId));
    for (const orgId of granted) await arrives(again, await announce(orgId));
    for (const marker of missed) expect(again.received).not.toContain(marker);
  }

  it('removing a user from an organization closes their connection; a reconnect gets only the others', async () => {
    const { a, b } = orgPair();
    const admin = await createUser(2, [a]);
    const adminToken = (await signIn(admin.email, admin.password)).accessToken;
    const member = await createUser(0, [a, b]);
    const { accessToken } = await signIn(member.email, member.password);
    const scene = await openScene(accessToken, a, [a, b]);

    const result = await call(
      '/api/setUserAccess',
      { selectedUserId: member.userId, role: 0, editUserOrgIds: [] },
      { token: adminToken },
    );
    expect(result.status).toBe(200);
    expect(result.body.message).toBe(USER_ROLE_UPDATED_TEXT);

    await expectCutOff(scene);
    await expectReconnect(accessToken, { granted: [b], refused: [a] });
  });

  it('demoting a user closes their connection, so it is authorized again; they keep their organizations', async () => {
    const { a, b } = orgPair();
    const admin = await createUser(2, [a]);
    const adminToken = (await signIn(admin.email, admin.password)).accessToken;
    const member = await createUser({ [a]: 1, [b]: 0 });
    const { accessToken } = await signIn(member.email, member.password);
    const scene = await openScene(accessToken, a, [a, b]);

    const result = await call(
      '/api/setUserAccess',
      { selectedUserId: member.userId, role: 0, editUserOrgIds: [a] },
      { token: adminToken },
    );
    expect(result.status).toBe(200);
    expect(result.body.user).toMatchObject({ orgRoles: { [a]: 0 } });

    await expectCutOff(scene);
    await expectReconnect(accessToken, { granted: [a, b], refused: [] });
  });

  it('deleting a user closes their connection and refuses a reconnect', async () => {
    const { a } = orgPair();
    const admin = await createUser(2, [a]);
    const adminToken = (await signIn(admin.email, admin.password)).accessToken;
    const member = await createUser(0, [a]);
    const { accessToken } = await signIn(member.email, member.password);
    const scene = await openScene(accessToken, a, [a]);

    const result = await call(
      '/api/deleteUser',
      { selectedRowDataIds: [member.userId] },
      { token: adminToken },
    );
    expect(result).toMatchObject({ status: 200, body: { message: USER_DELETED_TEXT } });

    await expectCutOff(scene);
    await expect(browser(accessToken)).rejects.toThrow();
    expect(await dynamoConnectionRegistry.ofUser(member.userId)).toEqual([]);
  });

  it('signing out closes the connections of every session and refuses their tokens', async () => {
    const { a, b } = orgPair();
    const member = await createUser(0, [a, b]);
    const session = await signIn(member.email, member.password);
    const other = await signIn(member.email, member.password);
    const scene = await openScene(session.accessToken, a, [a, b]);
    const otherDevice = await watch(browser(other.accessToken), [b]);

    const result = await call('/api/userLogout', {}, { cookie: session.cookie });
    expect(result).toMatchObject({ status: 200, body: { message: 'Signed out.' } });

    await expectCutOff(scene);
    await waitUntil(async () => (otherDevice.closed ? true : undefined));
    await expect(browser(session.accessToken)).rejects.toThrow();
    await expect(browser(other.accessToken)).rejects.toThrow();
  });

  it("deleting an organization closes its members' connections; a reconnect gets only their others", async () => {
    const { b } = orgPair();
    // Creating an organization takes an admin (of another organization).
    const admin = await createUser(2, [b]);
    const adminToken = (await signIn(admin.email, admin.password)).accessToken;
    const created = await call<{ organization: { _id: string } }>(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgName: 'Short-lived Org' },
      { token: adminToken },
    );
    expect(created.status).toBe(201);
    const a = created.body.organization._id;
    const member = await createUser({ [a]: 0, [b]: 0 });
    const { accessToken } = await signIn(member.email, member.password);
    const scene = await openScene(accessToken, a, [a, b]);

    const result = await call(
      '/api/dashboard/deleteOrgBuildFloor',
      { id: a, type: 'organization' },
      { token: adminToken },
    );
    expect(result).toMatchObject({ status: 200, body: { message: ITEM_DELETED_TEXT } });

    await expectCutOff(scene);
    await expectReconnect(accessToken, { granted: [b], refused: [a] });
  });

  it("never delivers an organization's messages to a user outside it", async () => {
    const { a, b } = orgPair();
    const outsider = await createUser(0, [b]);
    const { accessToken } = await signIn(outsider.email, outsider.password);
    const watcher = await watch(browser(accessToken), [b]);
    for (const filter of [topics.notification(a), `${a}/#`, '+/notification', '#']) {
      await expect(watcher.client.subscribeAsync(filter)).rejects.toThrow(/Subscribe error/);
    }
    const missed = await announce(a);
    const seen = await announce(b);
    // One broker, the first acknowledged before the second was sent: it would have arrived first.
    await arrives(watcher, seen);
    expect(watcher.received).toEqual([seen]);
    expect(watcher.received).not.toContain(missed);
  });
});

describe('the connection registry and revocation', () => {
  const realDeps = {
    connections: dynamoConnectionRegistry,
    broker: iotConnectionCloser,
    clock: systemClock,
    logger: { log: () => undefined },
  };

  it('records each admitted connection; one failing to close does not keep the others open', async () => {
    const { a } = orgPair();
    const member = await createUser(0, [a]);
    const { accessToken } = await signIn(member.email, member.password);
    const [failing, closing] = [browserId(), browserId()];
    const stuck = await watch(browser(accessToken, failing), [a]);
    const cut = await watch(browser(accessToken, closing), [a]);
    const recorded = await dynamoConnectionRegistry.ofUser(member.userId);
    expect(recorded.map((c) => c.clientId).sort()).toEqual([closing, failing].sort());
    expect(recorded.every((c) => c.orgIds.join() === a && c.userId === member.userId)).toBe(true);

    const logged: { level: LogLevel; message: string; clientId: unknown }[] = [];
    await revokeRealtimeAccess(
      {
        ...realDeps,
        broker: {
          disconnect: (clientId) =>
            clientId === failing
              ? Promise.reject(new Error('IoT Core unavailable'))
              : iotConnectionCloser.disconnect(clientId),
        },
        logger: {
          log: (level, message, fields) => logged.push({ level, message, clientId: fields?.clientId }),
        },
      },
      member.userId,
      [a],
    );
    await waitUntil(async () => (cut.closed ? true : undefined));
    expect(stuck.client.connected).toBe(true);
    expect(logged).toEqual([
      {
        level: 'error',
        message: 'a real-time connection could not be closed; the re-authorization does',
        clientId: failing,
      },
    ]);
    // The closed one is forgotten; the other stays recorded for the next revocation.
    expect((await dynamoConnectionRegistry.ofUser(member.userId)).map((c) => c.clientId)).toEqual([failing]);

    // Revoking organizations it was not granted leaves it alone; revoking again closes it.
    await revokeRealtimeAccess(realDeps, member.userId, ['rt-elsewhere']);
    expect(stuck.client.connected).toBe(true);
    await revokeRealtimeAccess(realDeps, member.userId, [a]);
    await waitUntil(async () => (stuck.closed ? true : undefined));
    expect(await dynamoConnectionRegistry.ofUser(member.userId)).toEqual([]);
    // Idempotent: nothing left to close.
    await revokeRealtimeAccess(realDeps, member.userId, [a]);
  });

  it('the IoT authorizer Lambda records the connection it admits and names its client in the policy', async () => {
    const { a, b } = orgPair();
    const member = await createUser({ [a]: 0, [b]: 1 });
    const { accessToken } = await signIn(member.email, member.password);
    const clientId = browserId();
    const { body: minted } = await connectionToken(accessToken, clientId, [a, b]);
    const event = (mqtt: { clientId?: string }, signatureVerified = true) => ({
      token: minted.token,
      signatureVerified,
      protocols: ['tls', 'http', 'mqtt'],
      protocolData: { mqtt: { username: realtimeUsername('browser', minted), ...mqtt } },
    });
    const result = await authorizerLambda(event({ clientId }));
    expect(result).toMatchObject({
      isAuthenticated: true,
      disconnectAfterInSeconds: DISCONNECT_AFTER_SECONDS,
      refreshAfterInSeconds: REAUTHORIZE_AFTER_SECONDS,
    });
    const policy = JSON.parse(result.policyDocuments[0] ?? '{}') as {
      Statement: { Action: string; Resource: string | string[] }[];
    };
    expect(policy.Statement.find((s) => s.Action === 'iot:Connect')?.Resource).toMatch(
      new RegExp(`:client/${clientId}$`),
    );
    // What the user's pages show in each organization: its floors, their own command outcomes, notifications.
    expect(policy.Statement.find((s) => s.Action === 'iot:Receive')?.Resource).toEqual(
      [a, b].flatMap((orgId) =>
        [
          topics.floorLive(orgId, '*'),
          topics.commandStatus(orgId, member.userId),
          topics.notification(orgId),
        ].map((topic) => expect.stringMatching(new RegExp(`:topic/${topic.replace('*', '\\*')}$`))),
      ),
    );
    const [recorded] = await dynamoConnectionRegistry.ofUser(member.userId);
    expect(recorded).toMatchObject({ clientId, userId: member.userId, orgIds: [a, b] });
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(recorded?.expiresAt).toBeGreaterThan(nowSeconds + DISCONNECT_AFTER_SECONDS - 60);

    const refused = { isAuthenticated: false, policyDocuments: [] };
    // Without a client id the connection could not be closed later: it is refused.
    expect(await authorizerLambda(event({}))).toMatchObject(refused);
    // The token is bound to its client id: another browser's, or a device's, is refused.
    expect(await authorizerLambda(event({ clientId: browserId() }))).toMatchObject(refused);
    expect(await authorizerLambda(event({ clientId: '00:1A:22:01:05:03' }))).toMatchObject(refused);
    // IoT Core invokes the function only once it verified the signature; nothing else is trusted.
    expect(await authorizerLambda(event({ clientId }, false))).toMatchObject(refused);
  });

  it('admits a connection without an organization its user lost while it was being admitted', async () => {
    const { a, b } = orgPair();
    const member = await createUser(0, [a, b]);
    const { accessToken } = await signIn(member.email, member.password);
    const clientId = browserId();
    const claims = decodeConnectionToken((await connectionToken(accessToken, clientId, [a, b])).body.token);
    const deps = {
      users: dynamoUserStore,
      clock: systemClock,
      connections: {
        claim: dynamoConnectionRegistry.claim,
        // The user leaves `a` right after the record is written (their revocation found nothing yet).
        record: async (connection: RealtimeConnection) => {
          await dynamoConnectionRegistry.record(connection);
          await leaveOrganization(
            { users: dynamoUserStore, clock: systemClock, realtime: { revoke: async () => undefined } },
            member.userId,
            a,
          );
        },
      },
    };
    expect(await authorizeRealtime(deps, { claims, clientId })).toMatchObject({ orgIds: [b] });
    // No client id: such a connection could not be closed later, so it is not admitted.
    expect(await authorizeRealtime(deps, { claims, clientId: undefined })).toBeUndefined();
  });
});

describe('browser client ids (issue 19: a browser never takes over a device or another page)', () => {
  it("mints connection tokens for browser ids only, and a token for one id opens no other: a device's stays up", async () => {
    const { a } = orgPair();
    const member = await createUser(0, [a]);
    const { accessToken } = await signIn(member.email, member.password);
    const devId = `00:1A:${randomUUID().slice(0, 2)}:00:03:06`.toUpperCase();
    const deviceConnection = await device(a, devId);

    // The device's own id, or anything but `web-<uuid>`: 400, and nothing to present.
    for (const clientId of [devId, 'web-1', `web-${randomUUID()}-x`]) {
      const refused = await connectionToken(accessToken, clientId);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ message: REALTIME_TEXTS.badClientId });
    }
    // A token minted for a browser id does not open a connection under the device's id.
    const { body: minted } = await connectionToken(accessToken, browserId());
    await expect(connectWs(realtimeUsername('browser', minted), devId)).rejects.toThrow();
    // The device is still connected: a confirmation it publishes is taken.
    await deviceConnection.publishAsync(
      topics.controlSuccess(a),
      JSON.stringify({ action: 'success', devID: devId, val: 1 }),
      { qos: 1 },
    );
    expect(deviceConnection.connected).toBe(true);
  });

  it("does not let another user connect under a page's client id; the same user's reconnect takes over", async () => {
    const { a } = orgPair();
    const other = await createUser(0, [a]);
    const viewer = await createUser(0, [a]);
    const otherToken = (await signIn(other.email, other.password)).accessToken;
    const viewerToken = (await signIn(viewer.email, viewer.password)).accessToken;
    const clientId = browserId();
    const page = await watch(browser(otherToken, clientId), [a]);

    // viewer@ may mint a token naming other@'s client id, but the authorizer refuses the connection.
    await expect(browser(viewerToken, clientId)).rejects.toThrow();
    const marker = await announce(a);
    await arrives(page, marker);
    expect(page.closed).toBe(false);

    // The same user connecting again under the id drops the older connection, as IoT Core does (a
    // second after the last CONNECT under it: IoT Core takes one a second per client id).
    await new Promise((resolve) => setTimeout(resolve, REALTIME_CONNECT_INTERVAL_MS));
    const again = await watch(browser(otherToken, clientId), [a]);
    await expect.poll(() => page.closed).toBe(true);
    const next = await announce(a);
    await arrives(again, next);
  });
});

describe('signed connection tokens (issue 19: the authorizer runs only for tokens the API signed)', () => {
  it('refuses a missing, forged or altered signature before the authorizer runs', async () => {
    const { a, b } = orgPair();
    const member = await createUser(0, [a]);
    const { accessToken } = await signIn(member.email, member.password);
    const clientId = browserId();
    const { body: minted } = await connectionToken(accessToken, clientId);
    expect(minted).toMatchObject({ clientId, orgIds: [a], signature: expect.any(String) });

    const forged = Buffer.from(minted.signature, 'base64');
    forged[0] = (forged[0] ?? 0) ^ 0xff;
    const altered = Buffer.from(
      JSON.stringify({ ...decodeConnectionToken(minted.token), orgs: [a, b] }),
      'utf8',
    ).toString('base64url');
    for (const username of [
      'browser',
      `browser?token=${minted.token}`,
      realtimeUsername('browser', { token: minted.token, signature: forged.toString('base64') }),
      realtimeUsername('browser', { token: altered, signature: minted.signature }),
    ])
      await expect(connectWs(username, clientId)).rejects.toThrow();
    // Had the authorizer run for this valid token, it would have recorded the connection.
    expect(await dynamoConnectionRegistry.ofUser(member.userId)).toEqual([]);

    // The token as minted opens the connection.
    const client = await connectWs(realtimeUsername('browser', minted), clientId);
    expect(client.connected).toBe(true);
  });

  it('keeps a live session authorized past the access token hour, until the session ends', async () => {
    const { a } = orgPair();
    const member = await createUser(0, [a]);
    const { accessToken } = await signIn(member.email, member.password);
    const clientId = browserId();
    const claims = decodeConnectionToken((await connectionToken(accessToken, clientId)).body.token);
    const at = (offsetSeconds: number) => ({
      users: dynamoUserStore,
      connections: dynamoConnectionRegistry,
      clock: { now: () => new Date(Date.now() + offsetSeconds * 1000) },
    });
    // The access token expires after 60 minutes; re-authorizations every 5 minutes go on.
    for (const minutes of [0, 55, 65, 120, 23 * 60])
      expect(await authorizeRealtime(at(minutes * 60), { claims, clientId })).toMatchObject({ orgIds: [a] });
    // Past the connection's 24 h limit the token is over.
    expect(await authorizeRealtime(at(CONNECTION_TOKEN_SECONDS + 1), { claims, clientId })).toBeUndefined();
    // Signing out ends it at the next re-authorization.
    expect((await call('/api/userLogout', {}, { token: accessToken })).status).toBe(200);
    expect(await authorizeRealtime(at(65 * 60), { claims, clientId })).toBeUndefined();
  });
});

describe('policy size (issue 19: an owner of 200 organizations still gets live messages)', () => {
  it('scopes a connection to at most 16 organizations, answered in documents IoT Core accepts', async () => {
    const orgIds = Array.from({ length: 200 }, (_, i) => `rt-many-${randomUUID().slice(0, 8)}-${i}`);
    const owner = await createUser(Object.fromEntries(orgIds.map((o) => [o, 2])));
    const { accessToken } = await signIn(owner.email, owner.password);
    const clientId = browserId();

    // Naming more organizations than a connection holds: 400. One not theirs (foreign, unknown, or
    // one they were removed from that the page still watches) is left out; only such ones: 404.
    expect(
      (await connectionToken(accessToken, clientId, orgIds.slice(0, REALTIME_MAX_ORGS + 1))).status,
    ).toBe(400);
    const withForeign = await connectionToken(accessToken, clientId, [
      'org-demo',
      orgIds[0] ?? '',
      'rt-none',
    ]);
    expect(withForeign.status).toBe(200);
    expect(withForeign.body.orgIds).toEqual([orgIds[0]]);
    const foreign = await connectionToken(accessToken, clientId, ['org-demo']);
    const unknown = await connectionToken(accessToken, clientId, ['rt-not-theirs']);
    expect([foreign.status, unknown.status]).toEqual([404, 404]);
    expect(foreign.body).toEqual(unknown.body);

    // None named: the first ones; the page names what it watches (here the last organization).
    const watched = [orgIds[199] ?? '', ...orgIds.slice(0, REALTIME_MAX_ORGS - 1)];
    const { body: minted } = await connectionToken(accessToken, clientId, watched);
    expect(minted.orgIds).toEqual(watched);
    const answer = await authorizerLambda({
      token: minted.token,
      signatureVerified: true,
      protocolData: { mqtt: { clientId } },
    });
    expect(answer.isAuthenticated).toBe(true);
    expect(answer.policyDocuments.length).toBeLessThanOrEqual(10);
    for (const document of answer.policyDocuments) expect(document.length).toBeLessThanOrEqual(2048);

    const watcher = await watch(connectWs(realtimeUsername('browser', minted), clientId), [
      orgIds[199] ?? '',
    ]);
    const marker = await announce(orgIds[199] ?? '');
    await arrives(watcher, marker);
  });
});

describe('AWS service adapters against their local stand-ins', () => {
  it('IoT data-plane Publish (what device commands use) reaches subscribers of the topic', async () => {
    const watcher = await device('org-demo', 'adapter-check');
    await watcher.subscribeAsync(topics.control('org-demo', 'adapter-check'));
    const received = new Promise<string>((resolve) =>
      watcher.on('message', (_t, p) => resolve(p.toString())),
    );
    await new IoTDataPlaneClient({}).send(
      new PublishCommand({
        topic: topics.control('org-demo', 'adapter-check'),
        qos: 1,
        payload: Buffer.from('{"cmnd":54}'),
      }),
    );
    expect(JSON.parse(await received)).toEqual({ cmnd: 54 });
  });

  it("IoT data-plane DeleteConnection closes that client's connection; an unknown one is not found", async () => {
    const member = await createUser(0, ['org-demo']);
    const { accessToken } = await signIn(member.email, member.password);
    const clientId = browserId();
    const watcher = await watch(browser(accessToken, clientId), ['org-demo']);
    await new IoTDataPlaneClient({}).send(
      new DeleteConnectionCommand({ clientId, cleanSession: true, preventWillMessage: true }),
    );
    await waitUntil(async () => (watcher.closed ? true : undefined));
    await expect(
      new IoTDataPlaneClient({}).send(new DeleteConnectionCommand({ clientId })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
    // The adapter takes a connection that is already gone as closed.
    await expect(iotConnectionCloser.disconnect(clientId)).resolves.toBeUndefined();
  });

  it('SES SendEmail is captured where a developer can read it', async () => {
    const subject = `Check ${Date.now()}`;
    await new SESClient({}).send(
      new SendEmailCommand({
        Source: config.mailFrom,
        Destination: { ToAddresses: ['someone@example.com'] },
        Message: {
          Subject: { Data: subject },
          Body: { Html: { Data: '<p>Hello</p>' }, Text: { Data: 'Hello' } },
        },
      }),
    );
    const mail = readMailbox(stack.mailDir).find((m) => m.subject === subject);
    expect(mail).toMatchObject({ to: ['someone@example.com'], html: '<p>Hello</p>', text: 'Hello' });
    const viaApp = (await (await fetch(`${stack.url}/_local/mail`)).json()) as { subject: string }[];
    expect(viaApp.some((m) => m.subject === subject)).toBe(true);
  });
});
