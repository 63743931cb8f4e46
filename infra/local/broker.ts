import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import {
  authorizeRealtime,
  mayReceive,
  type RealtimeGrant,
} from '@argentum/functions/domain/realtime/authorizer';
import { basicIngestTopic, isReservedDeviceId, topics } from '@argentum/events';
import { poolAccessTokens } from '@argentum/functions/adapters/access-token';
import { systemClock } from '@argentum/functions/domain/ports';
import { dynamoConnectionRegistry } from '@argentum/functions/stores/connections';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import { HOST } from './config';
import { type LocalDeviceIdentity, verifyLocalDeviceCredential } from './device-credentials';

/**
 * Devices authenticate with X.509 certificates in IoT Core, and one IoT policy confines each to its own
 * organization (the thing attribute `orgID`) and id (the thing name = client id), its telemetry also
 * through Basic Ingest (`$aws/rules/{rule}/...`). Locally a device
 * presents its id and a credential bound to its organization (device-credentials.ts), and the same
 * rule applies: it publishes only its own telemetry and its organization's confirmations, and
 * subscribes only to its own command topic.
 */
const devicePrincipal = (identity: LocalDeviceIdentity, telemetryRuleName: string) => ({
  kind: 'device' as const,
  publish: [
    topics.sensorData(identity.orgId, identity.devId),
    basicIngestTopic(telemetryRuleName, topics.sensorData(identity.orgId, identity.devId)),
    topics.controlSuccess(identity.orgId),
    topics.controlFail(identity.orgId),
  ],
  subscribe: topics.control(identity.orgId, identity.devId),
});
const isTopicLevel = (value: string) => value !== '' && !/[+#/]/.test(value);

type Principal = ReturnType<typeof devicePrincipal> | { kind: 'user'; grant: RealtimeGrant };

export interface Broker {
  aedes: Aedes;
  publish(topic: string, payload: string | Buffer, qos?: 0 | 1): Promise<void>;
  /** Closes the connection of a client id, as IoT Core's DeleteConnection does; false when there is none. */
  disconnect(clientId: string): Promise<boolean>;
  close(): Promise<void>;
}

function authError(): AuthenticateError {
  return Object.assign(new Error('Not authorized'), { returnCode: 5 as const });
}

/**
 * aedes over TCP (devices) and WebSocket (browsers). Browsers are admitted by the same authorizer
 * function that IoT Core calls (which records each connection in the platform table), and may only
 * subscribe to their organizations' topics. `disconnect` is what the IoT data-plane shim's
 * DeleteConnection calls when a user's access is revoked.
 */
export async function startBroker(options: {
  mqttPort: number;
  wsPort: number;
  deviceSecret: string;
  /** The telemetry rule a device may publish to through Basic Ingest. */
  telemetryRuleName: string;
}): Promise<Broker> {
  const principals = new WeakMap<object, Principal>();
  // The admitted clients by client id (a client that reconnects with the same id takes over).
  const clients = new Map<string, Client>();
  const admit = (client: Client, principal: Principal) => {
    principals.set(client, principal);
    clients.set(client.id, client);
  };
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const secret = password?.toString('utf8');
      const device = verifyLocalDeviceCredential(options.deviceSecret, username, secret);
      if (device) {
        // As the IoT policy's iot:Connect: the client id is the device's own id.
        const allowed =
          client.id === device.devId && !isReservedDeviceId(device.devId) && isTopicLevel(device.orgId);
        if (!allowed) return done(authError(), false);
        admit(client, devicePrincipal(device, options.telemetryRuleName));
        return done(null, true);
      }
      authorizeRealtime(
        {
          users: dynamoUserStore,
          accessTokens: poolAccessTokens,
          connections: dynamoConnectionRegistry,
          clock: systemClock,
        },
        { token: secret, clientId: client.id },
      )
        .then((grant) => {
          if (!grant) return done(authError(), false);
          admit(client, { kind: 'user', grant });
          done(null, true);
        })
        .catch(() => done(authError(), false));
    },
    authorizePublish: (client, packet, callback) => {
      // The broker's own publishes (IoT data-plane shim, rule runner) have no client.
      if (!client) return callback(null);
      const principal = principals.get(client);
      const allowed = principal?.kind === 'device' && principal.publish.includes(packet.topic);
      callback(allowed ? null : new Error('Publishing to this topic is not allowed'));
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const principal = principals.get(client);
      const allowed =
        principal?.kind === 'device'
          ? subscription.topic === principal.subscribe
          : principal?.kind === 'user' && mayReceive(principal.grant, subscription.topic);
      // A null subscription answers SUBACK 128 (refused) and keeps the connection, as IoT Core does.
      callback(null, allowed ? subscription : null);
    },
  });

  aedes.on('clientDisconnect', (client) => {
    if (clients.get(client.id) === client) clients.delete(client.id);
  });

  const tcp: NetServer = createNetServer(aedes.handle);
  const http: HttpServer = createHttpServer();
  const wss = new WebSocketServer({ server: http, path: '/mqtt' });
  wss.on('connection', (socket, request) => {
    const stream = createWebSocketStream(socket);
    stream.on('error', () => socket.terminate());
    aedes.handle(stream, request);
  });
  await new Promise<void>((resolve) => tcp.listen(options.mqttPort, HOST, resolve));
  await new Promise<void>((resolve) => http.listen(options.wsPort, HOST, resolve));

  return {
    aedes,
    publish: (topic, payload, qos = 0) =>
      new Promise((resolve, reject) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      ),
    async disconnect(clientId) {
      const client = clients.get(clientId);
      clients.delete(clientId);
      if (!client || client.closed) return false;
      // Resolves once its subscriptions are gone and its socket is destroyed: nothing more reaches it.
      await new Promise<void>((resolve) => client.close(() => resolve()));
      return true;
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
