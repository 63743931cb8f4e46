import type { EventEmitter } from 'node:events';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { Aedes, type AuthenticateError, type Client, type Connection, type PublishPacket } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { basicIngestTopic, isReservedDeviceId, topics } from '@argentum/contracts/messaging';
import {
  AUTHORIZER_SIGNATURE_PARAM,
  REALTIME_CONNECT_INTERVAL_MS,
  REALTIME_TOKEN_KEY_NAME,
  usernameParams,
} from '@argentum/contracts';
import type { IotAuthorizerEvent } from '@argentum/functions/lambda/realtime-authorizer';
import {
  askAuthorizer,
  IOT_BROKER_LIMITS,
  IOT_MAX_MESSAGE_BYTES,
  iotClientIdRefusal,
  iotKeepAliveSeconds,
  iotTopicRefusal,
  type IotPolicy,
  localIotArn,
  publishRateWindow,
  throughputPacer,
} from './iot-policy';
import { HOST } from './config';
import { boundPort, listen, type ListenAt } from './http-util';
import {
  isLocalOperatorCredential,
  LOCAL_OPERATOR_CLIENT_ID_PREFIX,
  type LocalDeviceIdentity,
  verifyLocalDeviceCredential,
} from './device-credentials';

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

/** A browser admitted by the custom authorizer: the policy it answered, and its re-authorization timers. */
interface UserPrincipal {
  kind: 'user';
  policy: IotPolicy;
  timers: NodeJS.Timeout[];
}
/** An operator's connection (device-credentials.ts): subscribes to and receives anything, publishes nothing. */
const operatorPrincipal = { kind: 'operator' as const };
type Principal = ReturnType<typeof devicePrincipal> | UserPrincipal | typeof operatorPrincipal;

export interface Broker {
  aedes: Aedes;
  /** Where it listens: MQTT over TCP, and over WebSocket (`/mqtt`). */
  ports: { mqtt: number; mqttWs: number };
  publish(topic: string, payload: string | Buffer, qos?: 0 | 1): Promise<void>;
  /** Closes the connection of a client id, as IoT Core's DeleteConnection does; false when there is none. */
  disconnect(clientId: string): Promise<boolean>;
  close(): Promise<void>;
}

const REFUSALS = { 2: 'Identifier rejected', 3: 'Server unavailable', 5: 'Not authorized' } as const;

function authError(returnCode: keyof typeof REFUSALS = 5): AuthenticateError {
  return Object.assign(new Error(REFUSALS[returnCode]), { returnCode });
}

/** IoT Core's check of a signed token: RSA-SHA256 of the token with the authorizer's public key. */
function signatureValid(publicKey: KeyObject, token: string, signature: string): boolean {
  try {
    return verify('sha256', Buffer.from(token, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * aedes over TCP (devices) and WebSocket (browsers), applying what IoT Core applies:
 * - An operator's connection (IAM-authenticated on IoT Core; locally a credential made from the
 *   stack's secret, device-credentials.ts) may watch any topic, and publish nothing.
 * - Browsers present a signed connection token in the MQTT user name
 *   (`...?x-amz-customauthorizer-signature=...&token=...`). A missing or bad signature is refused
 *   before the authorizer runs; otherwise the same authorizer Lambda as on AWS is invoked, and its
 *   answer is applied as IoT Core does (iot-policy.ts): at most 10 documents of 2,048 characters (else
 *   the connection is refused), `iot:Connect` on `client/{id}`, `iot:Subscribe` on `topicfilter/...`,
 *   `iot:Receive` on `topic/...` (a message the policy does not let it receive is not delivered),
 *   `iot:Publish` on `topic/...`. It is invoked again every `refreshAfterInSeconds` with the same token
 *   (a refusal closes the connection), and the connection is closed after `disconnectAfterInSeconds`.
 * - A second connection with the same client id closes the older one (aedes, as IoT Core).
 * - IoT Core's keep-alive, not the client's: 30 to 1,200 s, 1,200 s for a CONNECT that asks for none
 *   (0) or more, and a connection silent for 1.5 times it is closed (`iotKeepAliveSeconds`).
 * - Messages larger than 128 KB are refused, from clients and from the data-plane shim alike.
 * - IoT Core's protocol quotas (iot-policy.ts, IOT_BROKER_LIMITS): a client id over 128 bytes or
 *   starting with `$` is refused; a topic over 256 bytes or 7 slashes (Basic Ingest's prefix not
 *   counted), QoS 2, more than 8 filters in one SUBSCRIBE or more than 50 on a connection close it;
 *   past 100 publishes in a second on a connection (sent and received together) a publish is discarded;
 *   past 512 KiB in a second through a connection (sent and received together), its data waits.
 * `disconnect` is what the IoT data-plane shim's DeleteConnection calls when a user's access is revoked.
 */
export async function startBroker(options: {
  /** Where MQTT over TCP listens (0: a free port). */
  mqttPort: ListenAt;
  /** Where MQTT over WebSocket listens (0: a free port). */
  wsPort: ListenAt;
  deviceSecret: string;
  /** The telemetry rule a device may publish to through Basic Ingest. */
  telemetryRuleName: string;
  /** The custom authorizer's token-signing public key (PEM). */
  realtimePublicKey: string;
}): Promise<Broker> {
  // The Lambda module checks its environment when it loads: the stack sets it before starting the broker.
  const { handler: authorizer } = await import('@argentum/functions/lambda/realtime-authorizer');
  const publicKey = createPublicKey(options.realtimePublicKey);
  const principals = new WeakMap<object, Principal>();
  // The admitted clients by client id (a client that reconnects with the same id takes over).
  const clients = new Map<string, Client>();
  // IoT Core's 512 KiB a second through a connection, sent and received together: past it, the data
  // waits (throughputPacer). What a connection sends is authorized at that rate (aedes reads nothing
  // more from it meanwhile); what it receives is written at that rate, without holding up delivery
  // to other connections.
  const pacers = new WeakMap<Client, ReturnType<typeof throughputPacer>>();
  const throughputDelay = (client: Client, packet: PublishPacket) =>
    pacers.get(client)?.delay(packet.payload.length + Buffer.byteLength(packet.topic), Date.now()) ?? 0;
  const paceDeliveries = (client: Client) => {
    type Deliver = (packet: PublishPacket, done: () => void) => void;
    // aedes's own per-connection delivery functions (subscriptions take them when they are made).
    const deliveries = client as unknown as { deliver0: Deliver; deliverQoS: Deliver };
    for (const name of ['deliver0', 'deliverQoS'] as const) {
      const deliver = deliveries[name];
      deliveries[name] = (packet, done) => {
        const wait = throughputDelay(client, packet);
        if (wait <= 0) return deliver(packet, done);
        setTimeout(() => deliver(packet, () => {}), wait);
        done();
      };
    }
  };
  const admit = (client: Client, principal: Principal) => {
    principals.set(client, principal);
    clients.set(client.id, client);
    pacers.set(client, throughputPacer());
    paceDeliveries(client);
  };

  /** Invokes the authorizer as IoT Core does; the policy it grants, or undefined when refused. */
  const authorize = async (event: IotAuthorizerEvent) => {
    const grant = await askAuthorizer(authorizer, event);
    if ('refused' in grant) return undefined;
    const clientId = event.protocolData?.mqtt?.clientId ?? '';
    if (!grant.policy.allows('iot:Connect', localIotArn('client', clientId))) return undefined;
    return grant;
  };

  const authenticateBrowser = async (client: Client, username: string | undefined, password?: Buffer) => {
    const params = usernameParams(username);
    const token = params.get(REALTIME_TOKEN_KEY_NAME);
    const signature = params.get(AUTHORIZER_SIGNATURE_PARAM);
    if (!token || !signature || !signatureValid(publicKey, token, signature)) return false;
    const event: IotAuthorizerEvent = {
      token,
      signatureVerified: true,
      protocols: ['mqtt', 'http'],
      protocolData: {
        mqtt: {
          ...(username ? { username } : {}),
          ...(password ? { password: password.toString('base64') } : {}),
          clientId: client.id,
        },
      },
    };
    const granted = await authorize(event);
    if (!granted) return false;
    const principal: UserPrincipal = { kind: 'user', policy: granted.policy, timers: [] };
    const reauthorize = () => {
      authorize(event)
        .then((again) => {
          if (!again) return client.close();
          principal.policy = again.policy;
          principal.timers.push(setTimeout(reauthorize, again.refreshAfterInSeconds * 1000).unref());
        })
        .catch(() => client.close());
    };
    principal.timers.push(
      setTimeout(reauthorize, granted.refreshAfterInSeconds * 1000).unref(),
      setTimeout(() => client.close(), granted.disconnectAfterInSeconds * 1000).unref(),
    );
    admit(client, principal);
    return true;
  };

  // The topic filters each connection holds (IoT Core: at most 50), and the connections that sent a
  // SUBSCRIBE of more than 8 filters (IoT Core closes them).
  const filters = new WeakMap<Client, Set<string>>();
  const oversizedSubscribe = new WeakSet<Client>();
  const subscribeRefusal = (client: Client, filter: string, qos: number): string | undefined => {
    const { maxQos, subscriptionsPerConnection, subscriptionsPerSubscribe } = IOT_BROKER_LIMITS;
    if (oversizedSubscribe.has(client))
      return `more than ${subscriptionsPerSubscribe} filters in a SUBSCRIBE`;
    if (qos > maxQos) return 'QoS 2 is not supported';
    const held = filters.get(client);
    if (held && !held.has(filter) && held.size >= subscriptionsPerConnection)
      return `more than ${subscriptionsPerConnection} subscriptions on a connection`;
    return iotTopicRefusal(filter, 'subscribe');
  };

  /** When each client id last had a CONNECT taken (those more than a second ago are let go). */
  const connectedAt = new Map<string, number>();
  const connectAllowed = (clientId: string, at: number): boolean => {
    const last = connectedAt.get(clientId);
    if (last !== undefined && at - last < REALTIME_CONNECT_INTERVAL_MS) return false;
    if (connectedAt.size >= 10_000)
      for (const [id, time] of connectedAt)
        if (at - time >= REALTIME_CONNECT_INTERVAL_MS) connectedAt.delete(id);
    connectedAt.set(clientId, at);
    return true;
  };

  // IoT Core's 100 publish requests a second per connection, inbound and outbound together: past it
  // a publish is discarded. An inbound one is still acknowledged (QoS 1) but reaches no one.
  const publishRates = new WeakMap<Client, ReturnType<typeof publishRateWindow>>();
  const publishFits = (client: Client) => {
    let window = publishRates.get(client);
    if (!window) publishRates.set(client, (window = publishRateWindow()));
    return window.take(Date.now());
  };
  const discarded = new WeakSet<object>();

  const aedes = await Aedes.createBroker({
    // Before aedes arms the connection's keep-alive timer (1.5 times the CONNECT's keep-alive, from
    // this packet): IoT Core's keep-alive replaces the one asked for, 0 (none) included.
    preConnect: (_client, packet, done) => {
      packet.keepalive = iotKeepAliveSeconds(packet.keepalive ?? 0);
      done(null, true);
    },
    authenticate: (client, username, password, done) => {
      if (iotClientIdRefusal(client.id)) return done(authError(2), false);
      // IoT Core takes one CONNECT a second for a client id: a closer one is refused, and the
      // connection under it (if any) stays.
      if (!connectAllowed(client.id, Date.now())) return done(authError(3), false);
      const secret = password?.toString('utf8');
      if (isLocalOperatorCredential(options.deviceSecret, username, secret)) {
        if (!client.id.startsWith(LOCAL_OPERATOR_CLIENT_ID_PREFIX)) return done(authError(), false);
        admit(client, operatorPrincipal);
        return done(null, true);
      }
      const device = verifyLocalDeviceCredential(options.deviceSecret, username, secret);
      if (device) {
        // As the IoT policy's iot:Connect: the client id is the device's own id.
        const allowed =
          client.id === device.devId && !isReservedDeviceId(device.devId) && isTopicLevel(device.orgId);
        if (!allowed) return done(authError(), false);
        admit(client, devicePrincipal(device, options.telemetryRuleName));
        return done(null, true);
      }
      authenticateBrowser(client, username, password)
        .then((admitted) => (admitted ? done(null, true) : done(authError(), false)))
        .catch(() => done(authError(), false));
    },
    authorizePublish: (client, packet, callback) => {
      if (packet.payload.length > IOT_MAX_MESSAGE_BYTES)
        return callback(new Error('A message is at most 128 KB'));
      // An error closes the connection: MQTT 3.1.1 has no way to refuse a PUBLISH.
      if (packet.qos > IOT_BROKER_LIMITS.maxQos) return callback(new Error('QoS 2 is not supported'));
      const topicRefused = iotTopicRefusal(packet.topic, 'publish');
      if (topicRefused) return callback(new Error(topicRefused));
      // The broker's own publishes (IoT data-plane shim, rule runner) have no client.
      if (!client) return callback(null);
      const principal = principals.get(client);
      const allowed =
        principal?.kind === 'device'
          ? principal.publish.includes(packet.topic)
          : principal?.kind === 'user' &&
            principal.policy.allows('iot:Publish', localIotArn('topic', packet.topic));
      if (!allowed) return callback(new Error('Publishing to this topic is not allowed'));
      const accept = () => {
        if (!publishFits(client)) discarded.add(packet);
        callback(null);
      };
      const wait = throughputDelay(client, packet);
      if (wait > 0) setTimeout(accept, wait);
      else accept();
    },
    authorizeSubscribe: (client, subscription, callback) => {
      // Past IoT Core's quotas the connection is closed (an error does it). For a filter over the topic
      // limits AWS documents no answer; it is treated as the other SUBSCRIBE quotas.
      const refused = subscribeRefusal(client, subscription.topic, subscription.qos);
      if (refused) return callback(new Error(refused));
      const principal = principals.get(client);
      const allowed =
        principal?.kind === 'operator' ||
        (principal?.kind === 'device'
          ? subscription.topic === principal.subscribe
          : principal?.kind === 'user' &&
            principal.policy.allows('iot:Subscribe', localIotArn('topicfilter', subscription.topic)));
      // A null subscription answers SUBACK 128 (refused) and keeps the connection, as IoT Core does.
      if (allowed) filters.set(client, (filters.get(client) ?? new Set()).add(subscription.topic));
      callback(null, allowed ? subscription : null);
    },
    authorizeForward: (client, packet) => {
      if (!publishFits(client)) return null;
      const principal = principals.get(client);
      // iot:Receive: a message the policy does not let the client receive is not delivered.
      if (
        principal?.kind === 'user' &&
        !principal.policy.allows('iot:Receive', localIotArn('topic', packet.topic))
      )
        return null;
      return packet;
    },
  });

  // A discarded publish goes no further than its acknowledgement (aedes has no hook to drop one).
  // (Its clients call it with themselves as a second argument, which its typings leave out.)
  type Done = (error?: Error) => void;
  const broker = aedes as unknown as {
    publish(packet: PublishPacket, client: Client | null | Done, done?: Done): void;
  };
  const publish = broker.publish.bind(aedes);
  broker.publish = (packet, client, done) => {
    if (!discarded.has(packet)) return publish(packet, client, done);
    (typeof client === 'function' ? client : done)?.();
  };

  aedes.on('unsubscribe', (unsubscriptions, client) => {
    for (const filter of unsubscriptions) filters.get(client)?.delete(filter);
  });
  aedes.on('clientDisconnect', (client) => {
    const principal = principals.get(client);
    if (principal?.kind === 'user') principal.timers.forEach(clearTimeout);
    if (clients.get(client.id) === client) clients.delete(client.id);
  });

  /**
   * aedes authorizes each filter of a SUBSCRIBE on its own: its parser's packets are looked at first,
   * to see how many filters one SUBSCRIBE names (aedes has no hook for it).
   */
  const handle = (stream: Connection, request?: IncomingMessage) => {
    const client = aedes.handle(stream, request);
    const parser = (client as unknown as { _parser: EventEmitter })._parser;
    parser.prependListener('packet', (packet: { cmd?: string; subscriptions?: unknown[] }) => {
      const count = packet.cmd === 'subscribe' ? (packet.subscriptions?.length ?? 0) : 0;
      if (count > IOT_BROKER_LIMITS.subscriptionsPerSubscribe) oversizedSubscribe.add(client);
    });
  };
  const tcp: NetServer = createNetServer((socket) => handle(socket));
  const http: HttpServer = createHttpServer();
  const wss = new WebSocketServer({ server: http, path: '/mqtt' });
  wss.on('connection', (socket, request) => {
    const stream = createWebSocketStream(socket);
    stream.on('error', () => socket.terminate());
    handle(stream, request);
  });
  try {
    await listen(tcp, options.mqttPort, HOST);
    await listen(http, options.wsPort, HOST);
  } catch (error) {
    for (const server of [tcp, http]) if (server.listening) server.close();
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    throw error;
  }

  return {
    aedes,
    ports: { mqtt: boundPort(tcp), mqttWs: boundPort(http) },
    publish(topic, payload, qos = 0) {
      const refused =
        Buffer.byteLength(payload) > IOT_MAX_MESSAGE_BYTES
          ? 'A message is at most 128 KB'
          : iotTopicRefusal(topic, 'publish');
      if (refused) return Promise.reject(new Error(refused));
      return new Promise((resolve, reject) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    },
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
