import { randomUUID } from 'node:crypto';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  basicIngestTopic,
  confirmationMessageSchema,
  commandMessageSchema,
  liveFloorMessageSchema,
  topics,
} from '@argentum/contracts/messaging';
import {
  type BuildingView,
  type CommandView,
  type DeviceRangeAnswer,
  type FloorView,
  type OrganizationView,
  REALTIME_TOKEN_PATH,
  realtimeUsername,
  type RealtimeTokenView,
} from '@argentum/contracts';
import { ENV } from '@argentum/functions/environment';
import { realtimeEndpointOf, runtimeConfigSchema } from '../../frontend/src/shared/config/runtimeConfig';

/**
 * The smoke test of a running platform (a fresh deploy, or the local stack): it signs in a test user,
 * opens the browser channel, provisions a test device, publishes a reading through Basic Ingest, sees
 * it in a data query and on the live floor topic, sends a command and receives it as the device, and
 * removes what it made. `npm run smoke` runs it against a deployment (smoke-cli.ts); the platform test
 * suite runs it against the local test stack (infra/test/local/smoke.test.ts).
 */

/** What both kinds of target need. */
interface TargetBase {
  /** Where the web app is served, with the API under `/api` (the `SiteUrl` output; locally the app's URL). */
  siteUrl: string;
  /** A user with role Admin (2) or more in `orgId`. */
  email: string;
  password: string;
  /** The organization the smoke test works in: it adds a building and a floor there, and removes them. */
  orgId: string;
  /** The platform table, where the test device is registered (the `PlatformTableName` output). */
  platformTable: string;
  /** The telemetry table, whose rows of the test device are removed at the end. */
  telemetryTable: string;
  /** The telemetry rule's name, for the Basic Ingest topic (the `TelemetryRuleName` output). */
  telemetryRuleName: string;
}

/** The local stack: devices use a local credential on the broker's TCP port. */
export interface LocalSmokeTarget extends TargetBase {
  kind: 'local';
  mqttUrl: string;
  deviceSecret: string;
}

/** A deployment on AWS: the device gets an IoT thing and a certificate with the device policy. */
export interface AwsSmokeTarget extends TargetBase {
  kind: 'aws';
  region: string;
  /** The account's `iot:Data-ATS` endpoint (the `IotEndpoint` output). */
  iotEndpoint: string;
  /** The device policy (the `DevicePolicyName` output). */
  devicePolicyName: string;
}

export type SmokeTarget = LocalSmokeTarget | AwsSmokeTarget;

/** One step's outcome, as the command prints it. */
export interface SmokeStep {
  step: string;
  ok: boolean;
  detail: string;
}

export interface SmokeOptions {
  /** How long a step waits for what it expects (ms). */
  timeoutMs?: number;
  /** Told each step as it ends. */
  onStep?: (step: SmokeStep) => void;
}

export class SmokeFailure extends Error {
  constructor(
    readonly steps: SmokeStep[],
    message: string,
  ) {
    super(message);
  }
}

/** A device's side of the test: how it gets its identity, connects, and is removed again. */
interface DeviceAccess {
  connect(orgId: string, devId: string): Promise<MqttClient>;
  remove(orgId: string, devId: string): Promise<void>;
}

async function localDevices(target: LocalSmokeTarget): Promise<DeviceAccess> {
  const { connectLocalDevice } = await import('../local/device-credentials');
  return {
    connect: (orgId, devId) => connectLocalDevice(target.mqttUrl, target.deviceSecret, { orgId, devId }),
    remove: async () => undefined,
  };
}

/** The thing, its certificate (with the device policy) and, on removal, all of it deleted again. */
async function awsDevices(target: AwsSmokeTarget): Promise<DeviceAccess> {
  const iotSdk = await import('@aws-sdk/client-iot');
  const { iotThingRegistry } = await import('@argentum/functions/adapters/iot-things');
  const { issueThingIdentity } = await import('@argentum/functions/domain/devices/provisioning');
  const iot = new iotSdk.IoTClient({ region: target.region });
  return {
    async connect(orgId, devId) {
      const identity = await issueThingIdentity(
        { things: iotThingRegistry(iot) },
        { orgId, devId, policyName: target.devicePolicyName, rotate: false },
      );
      if (!identity.certificate) throw new Error(`thing ${devId} already had a certificate`);
      const { certificatePem, privateKey } = identity.certificate;
      // A new certificate and its policy take a few seconds to reach IoT Core's authorizers: try again.
      for (let attempt = 1; ; attempt++) {
        try {
          // Node's root store holds Amazon Root CA 1, which signs the ATS endpoint.
          return await connectAsync(`mqtts://${target.iotEndpoint}:8883`, {
            clientId: devId,
            cert: certificatePem,
            key: privateKey,
            protocolVersion: 4,
            reconnectPeriod: 0,
          });
        } catch (error) {
          if (attempt >= 6) throw error;
          await new Promise((resolve) => setTimeout(resolve, 5000));
        }
      }
    },
    async remove(_orgId, devId) {
      const { removeThing } = await import('./thing-removal');
      try {
        await removeThing(iot, { thingName: devId, policyName: target.devicePolicyName });
      } finally {
        iot.destroy();
      }
    },
  };
}

/** The API as the browser calls it: JSON over HTTPS with the access token. */
function api(siteUrl: string) {
  let token: string | undefined;
  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(new URL(path, siteUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
  return {
    call,
    /**
     * The sidebar's call as a browser asks it (gzip accepted): its organizations, and the encoding it
     * came in (fetch inflates it; the header stays).
     */
    async organizations() {
      const response = await fetch(new URL('/api/dashboard/getUsersOrganisations', siteUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'accept-encoding': 'gzip, deflate, br',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: '{}',
      });
      const text = await response.text();
      if (!response.ok)
        throw new Error(`getUsersOrganisations answered ${response.status}: ${text.slice(0, 300)}`);
      const { organizations } = JSON.parse(text) as { organizations: OrganizationView[] };
      return { organizations, encoding: response.headers.get('content-encoding') };
    },
    async signIn(email: string, password: string) {
      const answer = await call<{ accessToken: string }>('/api/login', { user: { email, password } });
      token = answer.accessToken;
      return answer.accessToken;
    },
  };
}

/**
 * Opens the browser's real-time channel as the web app does: the endpoint and authorizer from the
 * app's `/config.json` (realtimeEndpointOf, the browser's own derivation), a `web-<uuid>` client id,
 * the access token as the MQTT password; over wss 443 on AWS (the custom authorizer). The one place
 * to change when the browser's credential changes.
 */
export async function openBrowserChannel(
  siteUrl: string,
  accessToken: string,
  orgId: string,
): Promise<MqttClient> {
  const response = await fetch(new URL('/config.json', siteUrl));
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  const endpoint = realtimeEndpointOf(runtimeConfigSchema.parse(await response.json()));
  if (!endpoint) throw new Error('/config.json names no real-time endpoint');
  // As the web app does: a signed connection token for this client id and the organization watched.
  const clientId = `web-${randomUUID()}`;
  const minted = await fetch(new URL(REALTIME_TOKEN_PATH, siteUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ clientId, orgIds: [orgId] }),
  });
  if (!minted.ok) throw new Error(`${REALTIME_TOKEN_PATH} answered ${minted.status}`);
  const grant = (await minted.json()) as RealtimeTokenView;
  const options: IClientOptions = {
    clientId,
    username: realtimeUsername(endpoint.username, grant),
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 0,
  };
  return connectAsync(endpoint.url, options);
}

/** Resolves with the first value `probe` answers (not undefined) within the time limit. */
async function eventually<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Messages received on a client, for steps that wait for one. */
function inbox(client: MqttClient) {
  const received: { topic: string; payload: string }[] = [];
  client.on('message', (topic, payload) => received.push({ topic, payload: payload.toString('utf8') }));
  return received;
}

/** The platform's device registration and the telemetry rows of the device, in the target's tables. */
async function platformStores(target: SmokeTarget) {
  process.env[ENV.platformTable] = target.platformTable;
  process.env[ENV.telemetryTable] = target.telemetryTable;
  const [{ registerDevice }, { dynamoDevices }, { dynamoTreeStore }, { systemClock }, { dynamo }, { keys }] =
    await Promise.all([
      import('@argentum/functions/domain/devices/register'),
      import('@argentum/functions/stores/devices'),
      import('@argentum/functions/stores/tree'),
      import('@argentum/functions/domain/ports'),
      import('@argentum/functions/aws/dynamo'),
      import('@argentum/functions/stores/keys'),
    ]);
  const { seriesKey } = await import('@argentum/functions/stores/telemetry-dynamodb');
  /** Every item of a partition, deleted (the device's telemetry series and commands). */
  const clearPartition = async (table: string, name: string, value: string, sortName: string) => {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: '#k = :v',
          ExpressionAttributeNames: { '#k': name },
          ExpressionAttributeValues: { ':v': value },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? [])
        await dynamo().send(
          new DeleteCommand({ TableName: table, Key: { [name]: value, [sortName]: item[sortName] } }),
        );
      start = page.LastEvaluatedKey;
    } while (start);
  };
  return {
    register: (orgId: string, devId: string) =>
      registerDevice(
        { devices: dynamoDevices, tree: dynamoTreeStore, clock: systemClock },
        { orgId, devId, devType: 5, devName: `Smoke${devId.slice(-8)}` },
      ),
    async remove(devId: string) {
      await dynamo().send(new DeleteCommand({ TableName: target.platformTable, Key: keys.device(devId) }));
      await clearPartition(target.platformTable, 'pk', keys.command(devId, '').pk, 'sk');
      for (const resolution of ['raw', 'hour'] as const)
        await clearPartition(target.telemetryTable, 'series', seriesKey(devId, resolution), 't');
    },
  };
}

/**
 * Runs the smoke test against a target. Resolves with the steps when every one passed; rejects with a
 * `SmokeFailure` naming the failed step. Whatever it made is removed in either case.
 */
export async function runSmoke(target: SmokeTarget, options: SmokeOptions = {}): Promise<SmokeStep[]> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const steps: SmokeStep[] = [];
  const cleanups: { step: string; run: () => Promise<unknown> }[] = [];
  const step = async <T>(name: string, run: () => Promise<T>, detail: (value: T) => string): Promise<T> => {
    try {
      const value = await run();
      const done = { step: name, ok: true, detail: detail(value) };
      steps.push(done);
      options.onStep?.(done);
      return value;
    } catch (error) {
      const failed = {
        step: name,
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
      };
      steps.push(failed);
      options.onStep?.(failed);
      throw new SmokeFailure(steps, `${name}: ${failed.detail}`);
    }
  };

  const http = api(target.siteUrl);
  const devId = `smoke-${randomUUID().slice(0, 12)}`;
  try {
    const token = await step(
      'sign in',
      () => http.signIn(target.email, target.password),
      () => target.email,
    );
    const browser = await step(
      'open the browser channel',
      () => openBrowserChannel(target.siteUrl, token, target.orgId),
      (client) => `connected as ${client.options.clientId ?? '?'}`,
    );
    cleanups.push({ step: 'close the browser channel', run: () => browser.endAsync(true) });

    const building = await step(
      'add a building and a floor',
      async () => {
        const made = await http.call<{ building: BuildingView }>('/api/dashboard/createOrUpdateOrgBuild', {
          orgID: target.orgId,
          buildName: `Smoke ${devId.slice(-8)}`,
        });
        cleanups.push({
          step: 'remove the building',
          run: () =>
            http.call('/api/dashboard/deleteOrgBuildFloor', { id: made.building._id, type: 'building' }),
        });
        const floor = await http.call<{ floor: FloorView }>('/api/dashboard/createOrUpdateFloor', {
          buildID: made.building._id,
          floorName: 'Smoke floor',
        });
        return { buildId: made.building._id, floorId: floor.floor._id };
      },
      (b) => `building ${b.buildId}, floor ${b.floorId}`,
    );

    await step(
      'see the floor in the sidebar, answered gzip',
      async () => {
        // Spliced from the stored summaries, and sent compressed all the way (API Gateway decodes the
        // Lambda's base64, CloudFront passes the gzip body on).
        const { organizations, encoding } = await http.organizations();
        if (encoding !== 'gzip') throw new Error(`answered with content-encoding ${encoding ?? 'none'}`);
        const floors = organizations
          .find((o) => o._id === target.orgId)
          ?.buildData.find((b) => b._id === building.buildId)?.floors;
        if (!floors?.some((f) => f._id === building.floorId))
          throw new Error('the new floor is not in the sidebar');
        return organizations.length;
      },
      (count) => `${count} organization(s), gzip`,
    );

    const stores = await platformStores(target);
    const devices = target.kind === 'local' ? await localDevices(target) : await awsDevices(target);
    const device = await step(
      'provision a test device',
      async () => {
        await stores.register(target.orgId, devId);
        cleanups.push({ step: 'remove the device record and its data', run: () => stores.remove(devId) });
        cleanups.push({ step: 'remove the device identity', run: () => devices.remove(target.orgId, devId) });
        // Placed as edit mode's Save does, with its data point.
        await http.call('/api/deviceControl/updateOnFloorStatus', {
          floorID: building.floorId,
          onFloorStatus: true,
          dropDevicesList: [
            { devID: devId, onFloor: true, floorOrigin: { x: 0.5, y: 0.5 }, dataPoints: [{ dp: 'temp' }] },
          ],
        });
        const client = await devices.connect(target.orgId, devId);
        cleanups.push({ step: 'disconnect the device', run: () => client.endAsync(true) });
        return client;
      },
      () => `${devId}, placed on the floor, connected`,
    );

    const liveTopic = topics.floorLive(target.orgId, building.floorId);
    const browserInbox = inbox(browser);
    await step(
      'watch the live floor topic',
      async () => {
        const granted = await browser.subscribeAsync(liveTopic, { qos: 0 });
        if (granted.some((g) => g.qos === 128)) throw new Error(`subscription to ${liveTopic} refused`);
      },
      () => liveTopic,
    );

    const value = Math.round(Math.random() * 1000) / 10;
    const time = Date.now();
    const telemetryTopic = basicIngestTopic(target.telemetryRuleName, topics.sensorData(target.orgId, devId));
    await step(
      'publish a reading through Basic Ingest',
      () =>
        device.publishAsync(
          telemetryTopic,
          JSON.stringify({ devID: devId, devType: 5, time, values: { temp: value } }),
          { qos: 1 },
        ),
      () => `${telemetryTopic}: temp ${value}`,
    );

    await step(
      'see the reading in a data query',
      () =>
        eventually('the reading in getDeviceInfoDateRange', timeoutMs, async () => {
          const answer = await http.call<DeviceRangeAnswer>('/api/dataQuery/getDeviceInfoDateRange', {
            devID: devId,
            sensorDataPoint: 'temp',
            cusDate: { startDate: time - 60_000, endDate: time + 60_000 },
            orgId: target.orgId,
          });
          return answer.latestVal?.value === value ? answer : undefined;
        }),
      (answer) => `latest value ${answer.latestVal?.value}, ${answer.deviceResponse.length} point(s)`,
    );

    await step(
      'see the reading on the live floor topic',
      () =>
        eventually('the reading on the live floor topic', timeoutMs, async () =>
          browserInbox.find((m) => {
            if (m.topic !== liveTopic) return false;
            const parsed = liveFloorMessageSchema.safeParse(JSON.parse(m.payload));
            return (
              parsed.success && parsed.data.updates.some((u) => u.devID === devId && u.latest?.temp === value)
            );
          }),
        ),
      () => liveTopic,
    );

    const commandTopic = topics.control(target.orgId, devId);
    const deviceInbox = inbox(device);
    await device.subscribeAsync(commandTopic, { qos: 1 });
    const sent = await step(
      'send a command',
      () => http.call<{ commandId: string }>('/api/deviceControl/testDevice', { devID: devId, devType: 5 }),
      (answer) => `testDevice, command ${answer.commandId}`,
    );
    const command = await step(
      'receive the command as the device',
      () =>
        eventually('the command on the device topic', timeoutMs, async () => {
          for (const message of deviceInbox) {
            const parsed = commandMessageSchema.safeParse(JSON.parse(message.payload));
            if (message.topic === commandTopic && parsed.success && parsed.data.commandId === sent.commandId)
              return parsed.data;
          }
          return undefined;
        }),
      (c) => `${commandTopic}: ${c.action} (cmnd ${c.cmnd})`,
    );
    await step(
      'confirm it and see it confirmed',
      async () => {
        const reply = confirmationMessageSchema.parse({
          action: 'success',
          devID: devId,
          devType: 5,
          commandId: command.commandId,
          cmnd: command.cmnd,
        });
        await device.publishAsync(topics.controlSuccess(target.orgId), JSON.stringify(reply), { qos: 1 });
        return eventually('the confirmed command', timeoutMs, async () => {
          const history = await http.call<{ commands: CommandView[] }>(
            '/api/deviceControl/getCommandHistory',
            {
              devID: devId,
            },
          );
          return history.commands.find((c) => c.commandId === sent.commandId && c.status === 'confirmed');
        });
      },
      (c) => `command ${c.commandId} ${c.status}`,
    );
  } finally {
    // Everything made is removed, newest first, even after a failure; a failed removal fails the run.
    const failures: string[] = [];
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup.run();
      } catch (error) {
        failures.push(`${cleanup.step}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const removed = {
      step: 'remove what it made',
      ok: failures.length === 0,
      detail: failures.join('; ') || devId,
    };
    steps.push(removed);
    options.onStep?.(removed);
    if (failures.length > 0 && steps.every((s) => s === removed || s.ok))
      // eslint-disable-next-line no-unsafe-finally
      throw new SmokeFailure(steps, `remove what it made: ${removed.detail}`);
  }
  return steps;
}
