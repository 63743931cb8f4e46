import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { REALTIME_CONNECT_INTERVAL_MS } from '@argentum/contracts';

/**
 * Local device credentials, standing in for IoT Core's per-device X.509 certificates. A device
 * connects with its id as user name and client id, and the password `{orgId}:{mac}`, where mac is an
 * HMAC of the stack's device secret over the organization and the device id. Like the thing attribute
 * `orgID` the IoT policy reads, the credential binds the connection to one organization and one device;
 * only the holder of the stack secret (the provisioning path, test setup) can issue one.
 */
export interface LocalDeviceIdentity {
  orgId: string;
  devId: string;
}

const macOf = (secret: string, { orgId, devId }: LocalDeviceIdentity) =>
  createHmac('sha256', secret).update(`${orgId}\n${devId}`).digest('base64url');

/** Whether `given` is `expected`, compared in constant time. */
function sameProof(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The password of a device's local connection. */
export const localDeviceCredential = (secret: string, identity: LocalDeviceIdentity) =>
  `${identity.orgId}:${macOf(secret, identity)}`;

/** The identity a user name and password prove, or undefined when they are not a device credential. */
export function verifyLocalDeviceCredential(
  secret: string,
  username: string | undefined,
  password: string | undefined,
): LocalDeviceIdentity | undefined {
  if (!username || !password) return undefined;
  const split = password.lastIndexOf(':');
  if (split <= 0) return undefined;
  const identity = { orgId: password.slice(0, split), devId: username };
  return sameProof(password.slice(split + 1), macOf(secret, identity)) ? identity : undefined;
}

/**
 * The local stand-in for an operator's MQTT client on IoT Core (IAM-authenticated, such as the
 * console's MQTT test client): user name `operator`, a client id starting `operator-` (so it can never
 * take over a device's or a page's connection), and an HMAC of the stack's device secret as password.
 * It may subscribe to and receive any topic, within the same per-connection quotas, and publish
 * nothing: it watches what devices and the platform say (tests, an operator of the local stack).
 */
export const LOCAL_OPERATOR_USERNAME = 'operator';
export const LOCAL_OPERATOR_CLIENT_ID_PREFIX = 'operator-';
/** The password of an operator's local connection. */
export const localOperatorCredential = (secret: string) =>
  createHmac('sha256', secret).update('operator\n').digest('base64url');

/** Whether a user name and password are the local operator's credential. */
export function isLocalOperatorCredential(
  secret: string,
  username: string | undefined,
  password: string | undefined,
): boolean {
  return (
    username === LOCAL_OPERATOR_USERNAME && !!password && sameProof(password, localOperatorCredential(secret))
  );
}

/** An operator's MQTT connection to the local broker (see isLocalOperatorCredential). */
export function connectLocalOperator(
  mqttUrl: string,
  secret: string,
  options: IClientOptions = {},
): Promise<MqttClient> {
  return connectAs(mqttUrl, options, {
    clientId: `${LOCAL_OPERATOR_CLIENT_ID_PREFIX}${randomBytes(8).toString('hex')}`,
    username: LOCAL_OPERATOR_USERNAME,
    password: localOperatorCredential(secret),
  });
}

/** A device's own MQTT connection to the local broker (tests, the simulator, the bench). */
export function connectLocalDevice(
  mqttUrl: string,
  secret: string,
  identity: LocalDeviceIdentity,
  options: IClientOptions = {},
): Promise<MqttClient> {
  return connectAs(mqttUrl, options, {
    clientId: identity.devId,
    username: identity.devId,
    password: localDeviceCredential(secret, identity),
  });
}

/** One MQTT 3.1.1 connection under a credential, made within IoT Core's CONNECT rate for its id. */
const connectAs = (
  mqttUrl: string,
  options: IClientOptions,
  credential: { clientId: string; username: string; password: string },
) =>
  connectWithinClientIdRate(() =>
    connectAsync(mqttUrl, { reconnectPeriod: 0, protocolVersion: 4, ...options, ...credential }),
  );

/** CONNACK 3, "Server unavailable": how the broker refuses a CONNECT too close to its id's last. */
const SERVER_UNAVAILABLE = 3;

/**
 * A connection made as a device's or page's client does it on IoT Core, which takes one CONNECT a
 * second for a client id (REALTIME_CONNECT_INTERVAL_MS): one refused for coming too soon after the
 * last under its id (a reconnect right after a refusal or a close) is made again a second later.
 */
export async function connectWithinClientIdRate(
  connect: () => Promise<MqttClient>,
  attempts = 3,
): Promise<MqttClient> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect();
    } catch (error) {
      const code = (error as { code?: unknown } | undefined)?.code;
      if (code !== SERVER_UNAVAILABLE || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, REALTIME_CONNECT_INTERVAL_MS));
    }
  }
}

/**
 * What the local provisioning path needs to reach a running local stack: its broker, its platform
 * table and the device secret. The stack writes it to `{dataDir}/device-access.json` (0600) when it
 * starts, and keeps the secret from one start to the next, so issued credentials stay valid.
 */
export interface LocalDeviceAccess {
  mqttUrl: string;
  deviceSecret: string;
  dynamodbEndpoint: string;
  platformTable: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

const deviceAccessFile = (dataDir: string) => path.join(dataDir, 'device-access.json');

export function readDeviceAccess(dataDir: string): LocalDeviceAccess | undefined {
  const file = deviceAccessFile(dataDir);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as LocalDeviceAccess;
}

/** The device secret of an earlier start (unless `fresh`), or a new one. */
export const deviceSecretFor = (dataDir: string, fresh: boolean) =>
  (fresh ? undefined : readDeviceAccess(dataDir)?.deviceSecret) ?? randomBytes(24).toString('base64url');

export function writeDeviceAccess(dataDir: string, access: LocalDeviceAccess): void {
  const file = deviceAccessFile(dataDir);
  writeFileSync(file, JSON.stringify(access, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
}
