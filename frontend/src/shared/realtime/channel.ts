import type { connect as mqttConnect, MqttClient } from 'mqtt';
import { orgOfTopic } from '@argentum/contracts/messaging';
import {
  REALTIME_CONNECT_INTERVAL_MS,
  REALTIME_MAX_ORGS,
  realtimeUsername,
  type RealtimeTokenView,
} from '@argentum/contracts';
import { callApi, endSessionUnlessRenewed, SessionRefused } from '../api/client';
import { getAccessToken } from '../session/sessionStore';
import { loadRuntimeConfig, realtimeEndpointOf, type RealtimeEndpoint } from '../config/runtimeConfig';
import { LOSS_GRACE_MS, reconnectDelay } from './backoff';
import { createKeepaliveTimer, type KeepaliveTimer } from './keepaliveTimer';
import { parseRealtimeMessage, type RealtimeEvent } from './realtimeEvents';

/**
 * - `off`: not started, stopped, or no real-time endpoint configured;
 * - `connecting`: the first connection is being made;
 * - `connected`;
 * - `reconnecting`: an open connection closed a moment ago and is being made again (the platform
 *   closes connections on purpose: a revoked organization, a token's end). Not worth a warning yet;
 * - `lost`: the connection closed (or could not be made) and is not back after LOSS_GRACE_MS, or the
 *   first connection failed; a reconnect is scheduled.
 */
export type RealtimeStatus = 'off' | 'connecting' | 'connected' | 'reconnecting' | 'lost';

type Listener = (event: RealtimeEvent) => void;

const CONNECT_TIMEOUT_MS = 10_000;
/** Beyond IoT Core's second between two CONNECTs of a client id: the browser's and AWS's clocks, the way there. */
const CONNECT_INTERVAL_MARGIN_MS = 100;

/**
 * How long a connection that looks open has to answer a ping when the page comes back (shown again,
 * focused, back online): after a laptop's sleep its socket can be gone without a close, and the
 * keep-alive alone would notice only 1.5 keep-alives (90 s) later, the page meanwhile showing values
 * as live that stopped coming.
 */
export const LIVENESS_TIMEOUT_MS = 5_000;
/** At most one such ping in this long (focus comes with every click into the window). */
const LIVENESS_CHECK_INTERVAL_MS = 10_000;

/** The keep-alive clock of every connection of the page (made on the first connection). */
let keepaliveTimer: KeepaliveTimer | undefined;

/**
 * mqtt.js, loaded on first use (about 100 kB gzipped, needed only once signed in). Its browser build
 * is one CommonJS-style bundle with only a default export: `connect` is read from it.
 */
async function loadConnect(): Promise<typeof mqttConnect> {
  const module = await import('mqtt');
  const connect = module.connect ?? module.default.connect;
  if (typeof connect !== 'function') throw new Error('mqtt.js has no connect()');
  return connect;
}

/**
 * The organizations a connection token names for these topics: theirs, in the order screens asked for
 * them, at most REALTIME_MAX_ORGS.
 */
export function connectionScope(topics: Iterable<string>): string[] {
  const orgIds = new Set<string>();
  for (const topic of topics) {
    const orgId = orgOfTopic(topic);
    if (orgId && orgIds.size < REALTIME_MAX_ORGS) orgIds.add(orgId);
  }
  return [...orgIds];
}

/**
 * The browser's one MQTT-over-WebSocket connection (specification: real-time channel; reconnect at
 * most 8000 ms apart). A random browser client id per page (`web-<uuid>`, the only form the authorizer
 * admits). Before every connect it asks the API for a signed connection token for that id and the
 * organizations of the topics it wants (at most REALTIME_MAX_ORGS; POST /api/realtimeToken) and
 * presents it in the MQTT user name; IoT Core checks the signature, and the authorizer re-checks the
 * user every 5 minutes for the connection's 24 h. A topic of an organization the connection was not
 * scoped to makes it reconnect with a new token. Subscriptions are counted per topic, so screens ask
 * for what they show and the channel keeps each topic once; they are made again after every
 * reconnect. Messages reach the listeners only once validated (realtimeEvents.ts).
 */
class RealtimeChannel {
  readonly clientId = `web-${crypto.randomUUID()}`;
  private statusNow: RealtimeStatus = 'off';
  private readonly statusListeners = new Set<() => void>();
  private readonly listeners = new Set<Listener>();
  private readonly wanted = new Map<string, number>();
  private client: MqttClient | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private running = false;
  /**
   * The organizations the current connection's token was asked for (the API leaves out those no
   * longer the user's: asking again would not bring them).
   */
  private asked: readonly string[] = [];
  private rescopeQueued = false;
  /** Raised by start, stop and each connection attempt: a stale attempt gives up. */
  private generation = 0;
  /** When the last liveness ping went out (see LIVENESS_TIMEOUT_MS). */
  private lastLivenessCheck = -Infinity;
  /** When this page last sent a CONNECT (see REALTIME_CONNECT_INTERVAL_MS). */
  private lastConnectAt = -Infinity;

  constructor(
    private readonly endpoint: () => Promise<RealtimeEndpoint | undefined> = async () =>
      realtimeEndpointOf(await loadRuntimeConfig()),
  ) {}

  get status(): RealtimeStatus {
    return this.statusNow;
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onMessage(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps a topic (or filter) subscribed until the returned function is called. */
  subscribe(topic: string): () => void {
    const count = this.wanted.get(topic) ?? 0;
    this.wanted.set(topic, count + 1);
    if (count === 0) this.rescopeIfNeeded();
    if (count === 0 && this.client?.connected) this.client.subscribe(topic, { qos: 0 }, () => undefined);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.wanted.get(topic) ?? 1) - 1;
      if (left > 0) return void this.wanted.set(topic, left);
      this.wanted.delete(topic);
      if (this.client?.connected) this.client.unsubscribe(topic, () => undefined);
    };
  }

  private watchedOrgs(): string[] {
    return connectionScope(this.wanted.keys());
  }

  /** A wanted topic of an organization the connection's token does not name: reconnect (once) with a new one. */
  private rescopeIfNeeded(): void {
    if (this.rescopeQueued) return;
    this.rescopeQueued = true;
    // Screens subscribe several topics at once: look once they are all in.
    setTimeout(() => {
      this.rescopeQueued = false;
      if (!this.client?.connected) return;
      if (this.watchedOrgs().every((orgId) => this.asked.includes(orgId))) return;
      this.attempt = 0;
      void this.connect();
    }, 0);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    this.setStatus('connecting');
    window.addEventListener('online', this.reconnectNow);
    window.addEventListener('focus', this.checkAlive);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.checkAlive);
    void this.connect();
  }

  stop(): void {
    this.running = false;
    this.generation++;
    window.removeEventListener('online', this.reconnectNow);
    window.removeEventListener('focus', this.checkAlive);
    this.lastLivenessCheck = -Infinity;
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', this.checkAlive);
    clearTimeout(this.timer);
    this.drop();
    this.setStatus('off');
  }

  /** The browser is back online: no need to wait for the back-off (an open connection is checked). */
  private readonly reconnectNow = () => {
    if (!this.running) return;
    if (this.client?.connected) return this.checkAlive();
    clearTimeout(this.timer);
    this.attempt = 0;
    void this.connect();
  };

  /**
   * The page is back (shown, focused, online): a connection that looks open must answer a ping within
   * LIVENESS_TIMEOUT_MS, else it is given up and made again (status `reconnecting`, then `lost`).
   */
  private readonly checkAlive = () => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
    const client = this.client;
    const now = Date.now();
    if (!this.running || !client?.connected || now - this.lastLivenessCheck < LIVENESS_CHECK_INTERVAL_MS)
      return;
    this.lastLivenessCheck = now;
    const answered = () => {
      clearTimeout(deadline);
      client.off('packetreceive', answered);
    };
    const deadline = setTimeout(() => {
      client.off('packetreceive', answered);
      if (this.client === client) this.scheduleReconnect();
    }, LIVENESS_TIMEOUT_MS);
    client.on('packetreceive', answered);
    client.sendPing();
  };

  private setStatus(status: RealtimeStatus): void {
    if (status !== 'reconnecting') clearTimeout(this.graceTimer);
    if (status === this.statusNow) return;
    this.statusNow = status;
    for (const listener of this.statusListeners) listener();
  }

  private drop(): void {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end(true);
  }

  private scheduleReconnect(): void {
    if (!this.running) return;
    this.drop();
    if (this.statusNow === 'connected') {
      // Closed while up: quiet while it comes back, lost if it does not within the grace.
      this.setStatus('reconnecting');
      this.graceTimer = setTimeout(() => this.setStatus('lost'), LOSS_GRACE_MS);
    } else if (this.statusNow !== 'reconnecting') {
      this.setStatus('lost');
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), reconnectDelay(this.attempt++, Math.random()));
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    const current = () => this.running && generation === this.generation;
    let endpoint: RealtimeEndpoint | undefined;
    let grant: RealtimeTokenView;
    let tokenUsed: string | null = null;
    let orgIdsAsked: string[] = [];
    try {
      endpoint = await this.endpoint();
      if (!current()) return;
      if (!endpoint) return this.stop();
      // A signed token for this page's client id and what it watches (the API refreshes an expired
      // access token on its own); none named yet: the user's first organizations.
      orgIdsAsked = this.watchedOrgs();
      tokenUsed = getAccessToken();
      grant = await callApi(
        'realtimeToken',
        { clientId: this.clientId, ...(orgIdsAsked.length > 0 ? { orgIds: orgIdsAsked } : {}) },
        { silent: true, background: true },
      );
    } catch (error) {
      if (!current()) return;
      if (error instanceof SessionRefused) {
        // Signed out or password changed elsewhere, the user removed: the session ends in this page too
        // (sign-in page). A password change made here closes this connection too, and renews the
        // session: then the channel connects again with the new one.
        await endSessionUnlessRenewed(tokenUsed);
        if (!current()) return;
        this.attempt = 0;
        return void this.connect();
      }
      // Unreachable, failed, or refused for another reason (throttled): tried again after a while, and
      // the page says the connection is lost meanwhile.
      return this.scheduleReconnect();
    }
    let connect: typeof mqttConnect;
    try {
      connect = await loadConnect();
    } catch {
      // The chunk could not be loaded (network, a new deployment): try again later.
      return current() ? this.scheduleReconnect() : undefined;
    }
    if (!current()) return;
    // IoT Core refuses a second CONNECT of a client id within a second (a rescope right after
    // connecting, a reconnect on the browser coming back online): wait for it.
    const wait = this.lastConnectAt + REALTIME_CONNECT_INTERVAL_MS + CONNECT_INTERVAL_MARGIN_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!current()) return;
    this.lastConnectAt = Date.now();
    this.drop();
    const client = connect(endpoint.url, {
      clientId: this.clientId,
      username: realtimeUsername(endpoint.username, grant),
      protocolVersion: 4,
      clean: true,
      // Reconnects are ours: each one with a fresh token, at most 8000 ms apart.
      reconnectPeriod: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      resubscribe: false,
      keepalive: endpoint.keepAliveSeconds,
      // mqtt.js's own browser default makes its timer worker from a blob: URL, which the CSP refuses.
      timerVariant: (keepaliveTimer ??= createKeepaliveTimer()),
    });
    this.client = client;
    this.asked = orgIdsAsked.length > 0 ? orgIdsAsked : grant.orgIds;
    client.on('connect', () => {
      this.attempt = 0;
      for (const topic of this.wanted.keys()) client.subscribe(topic, { qos: 0 }, () => undefined);
      this.setStatus('connected');
      // Topics wanted while the token was being fetched may be of organizations it does not name.
      this.rescopeIfNeeded();
    });
    client.on('message', (topic, payload) => {
      const event = parseRealtimeMessage(topic, payload);
      if (!event) return;
      for (const listener of this.listeners) listener(event);
    });
    // A refused connection, a dropped socket, a closed connection: 'close' follows each.
    client.on('error', () => undefined);
    client.on('close', () => {
      if (this.client === client && current()) this.scheduleReconnect();
    });
  }
}

/** The page's channel; started while a user is signed in (app/realtimeFeeds.ts). */
export const realtimeChannel = new RealtimeChannel();
