import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { Aedes, type AuthenticateError } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import {
  authorizeRealtime,
  mayReceive,
  type RealtimeGrant,
  topicMatches,
} from '@argentum/functions/domain/realtime/authorizer';
import { poolAccessTokens } from '@argentum/functions/adapters/access-token';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import { HOST } from './config';

/**
 * Devices authenticate with X.509 certificates in IoT Core. Locally they present this user name and
 * a per-stack secret instead, and may publish telemetry and confirmations and receive commands.
 */
export const DEVICE_USERNAME = 'device';
const deviceMayPublish = ['+/sensordata/+', '+/controldata/success', '+/controldata/fail'];
const deviceMaySubscribe = ['+/controldata/+'];

type Principal = { kind: 'device' } | { kind: 'user'; grant: RealtimeGrant };

export interface Broker {
  aedes: Aedes;
  publish(topic: string, payload: string | Buffer, qos?: 0 | 1): Promise<void>;
  close(): Promise<void>;
}

function authError(): AuthenticateError {
  return Object.assign(new Error('Not authorized'), { returnCode: 5 as const });
}

/**
 * aedes over TCP (devices) and WebSocket (browsers). Browsers are admitted by the same authorizer
 * function that IoT Core calls, and may only subscribe to their organizations' topics.
 */
export async function startBroker(options: {
  mqttPort: number;
  wsPort: number;
  deviceSecret: string;
}): Promise<Broker> {
  const principals = new WeakMap<object, Principal>();
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const secret = password?.toString('utf8');
      if (username === DEVICE_USERNAME) {
        if (secret === options.deviceSecret) {
          principals.set(client, { kind: 'device' });
          return done(null, true);
        }
        return done(authError(), false);
      }
      authorizeRealtime({ users: dynamoUserStore, accessTokens: poolAccessTokens }, secret)
        .then((grant) => {
          if (!grant) return done(authError(), false);
          principals.set(client, { kind: 'user', grant });
          done(null, true);
        })
        .catch(() => done(authError(), false));
    },
    authorizePublish: (client, packet, callback) => {
      // The broker's own publishes (IoT data-plane shim, rule runner) have no client.
      if (!client) return callback(null);
      const principal = principals.get(client);
      const allowed =
        principal?.kind === 'device' && deviceMayPublish.some((f) => topicMatches(f, packet.topic));
      callback(allowed ? null : new Error('Publishing to this topic is not allowed'));
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const principal = principals.get(client);
      const allowed =
        principal?.kind === 'device'
          ? deviceMaySubscribe.some((f) => f === subscription.topic || topicMatches(f, subscription.topic))
          : principal?.kind === 'user' && mayReceive(principal.grant, subscription.topic);
      // A null subscription answers SUBACK 128 (refused) and keeps the connection, as IoT Core does.
      callback(null, allowed ? subscription : null);
    },
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
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
