import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_CONNECT_INTERVAL_MS, type RealtimeTokenView } from '@argentum/contracts';

/** A connection as mqtt.js makes one: what was subscribed on it, and the user name it presented. */
class FakeClient extends EventEmitter {
  connected = false;
  readonly subscribed: string[] = [];
  /** When its CONNECT went out. */
  readonly at = Date.now();
  constructor(readonly username: string) {
    super();
  }
  subscribe(topic: string) {
    this.subscribed.push(topic);
  }
  unsubscribe() {}
  pings = 0;
  sendPing() {
    this.pings++;
  }
  /** The broker answers a ping. */
  pong() {
    this.emit('packetreceive', { cmd: 'pingresp' });
  }
  end() {
    this.connected = false;
  }
  /** The broker accepts it. */
  open() {
    this.connected = true;
    this.emit('connect');
  }
  /** It closes (a network drop, the platform closing it). */
  close() {
    this.connected = false;
    this.emit('close');
  }
}

const made = vi.hoisted(() => ({ clients: [] as unknown[], tokenRequests: [] as unknown[] }));
const clients = made.clients as FakeClient[];

interface TokenRequest {
  body: { clientId: string; orgIds?: string[] };
  grant(orgIds?: string[]): void;
}
const tokenRequests = made.tokenRequests as TokenRequest[];

vi.mock('mqtt', () => {
  const connect = (_url: string, options: { username: string }) => {
    const client = new FakeClient(options.username);
    made.clients.push(client);
    return client;
  };
  return { connect, default: { connect } };
});

vi.mock('../api/client', () => {
  class ApiError extends Error {}
  class SessionRefused extends ApiError {}
  return {
    ApiError,
    SessionRefused,
    endSessionUnlessRenewed: () => Promise.resolve(),
    callApi: (_name: string, body: TokenRequest['body']) =>
      new Promise<RealtimeTokenView>((resolve) => {
        made.tokenRequests.push({
          body,
          // The API names the organizations it granted: those asked for that are still the user's.
          grant: (orgIds = body.orgIds ?? ['org-a']) =>
            resolve({ token: 't', signature: 's', clientId: body.clientId, orgIds, expiresAt: 0 }),
        } satisfies TokenRequest);
      }),
  };
});

vi.mock('../config/runtimeConfig', () => ({
  loadRuntimeConfig: () => Promise.resolve({}),
  realtimeEndpointOf: () => ({ url: 'ws://broker', username: 'browser', keepAliveSeconds: 60 }),
}));

const { LIVENESS_TIMEOUT_MS, realtimeChannel: channel } = await import('./channel');

/**
 * The page's one channel lives across the tests, and keeps its connects a second apart: each test
 * starts an hour after the one before began (none runs an hour of its clock).
 */
let clock = Date.now();
/** Long enough for the next CONNECT to go out (IoT Core's second, and the channel's margin). */
const CONNECT_SPACING_MS = REALTIME_CONNECT_INTERVAL_MS + 100;

beforeEach(() => {
  vi.useFakeTimers();
  clock += 3_600_000;
  vi.setSystemTime(clock);
  vi.stubGlobal('window', new EventTarget());
  clients.length = 0;
  tokenRequests.length = 0;
});

afterEach(() => {
  channel.stop();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const lastClient = () => clients.at(-1) as FakeClient;
const lastRequest = () => tokenRequests.at(-1) as TokenRequest;

describe('the real-time channel asks for the organizations its topics need', () => {
  it('reconnects with a token naming an organization whose topic was wanted while a reconnect fetched its token', async () => {
    const releases = [channel.subscribe('org-a/notification')];
    channel.start();
    await vi.advanceTimersByTimeAsync(0);
    lastRequest().grant();
    await vi.advanceTimersByTimeAsync(0);
    lastClient().open();
    expect(channel.status).toBe('connected');

    lastClient().close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tokenRequests).toHaveLength(2);
    // The user opens a floor of another organization while the new token is on its way.
    releases.push(channel.subscribe('org-c/live/floor-9'));
    await vi.advanceTimersByTimeAsync(0);
    lastRequest().grant();
    await vi.advanceTimersByTimeAsync(CONNECT_SPACING_MS);
    expect(clients).toHaveLength(2);
    lastClient().open();
    await vi.advanceTimersByTimeAsync(0);

    // That token does not name org-c: the channel asks for one that does, and connects with it, a
    // second after its last CONNECT (IoT Core refuses a closer one of the same client id).
    expect(tokenRequests).toHaveLength(3);
    expect(lastRequest().body.orgIds).toEqual(['org-a', 'org-c']);
    lastRequest().grant();
    await vi.advanceTimersByTimeAsync(CONNECT_SPACING_MS);
    expect(clients).toHaveLength(3);
    lastClient().open();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tokenRequests).toHaveLength(3);
    expect(lastClient().subscribed).toEqual(['org-a/notification', 'org-c/live/floor-9']);
    expect(channel.status).toBe('connected');
    const gaps = clients.slice(1).map((client, i) => client.at - (clients[i]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(REALTIME_CONNECT_INTERVAL_MS);
    releases.forEach((release) => release());
  });

  it('keeps its CONNECTs a second apart when the browser comes back online right after one', async () => {
    const release = channel.subscribe('org-a/notification');
    channel.start();
    await vi.advanceTimersByTimeAsync(0);
    lastRequest().grant();
    await vi.advanceTimersByTimeAsync(0);
    expect(clients).toHaveLength(1);
    // Refused or dropped before it opened, and the browser says it is online again: no back-off.
    lastClient().close();
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    lastRequest().grant();
    await vi.advanceTimersByTimeAsync(0);
    expect(clients).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(CONNECT_SPACING_MS);
    expect(clients).toHaveLength(2);
    expect((clients[1]?.at ?? 0) - (clients[0]?.at ?? 0)).toBeGreaterThanOrEqual(
      REALTIME_CONNECT_INTERVAL_MS,
    );
    lastClient().open();
    expect(channel.status).toBe('connected');
    release();
  });

  it('stays connected when the API leaves out an organization the user was removed from', async () => {
    const releases = [channel.subscribe('org-a/notification'), channel.subscribe('org-b/notification')];
    channel.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(lastRequest().body.orgIds).toEqual(['org-a', 'org-b']);
    // The page still holds org-b's topic; the user is no longer in org-b.
    lastRequest().grant(['org-a']);
    await vi.advanceTimersByTimeAsync(0);
    lastClient().open();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tokenRequests).toHaveLength(1);
    expect(clients).toHaveLength(1);
    expect(channel.status).toBe('connected');
    releases.forEach((release) => release());
  });
});

describe('a connection that looks open when the page comes back (after a sleep)', () => {
  async function connected() {
    const release = channel.subscribe('org-a/notification');
    channel.start();
    await vi.advanceTimersByTimeAsync(0);
    lastRequest().grant();
    await vi.advanceTimersByTimeAsync(0);
    lastClient().open();
    expect(channel.status).toBe('connected');
    return release;
  }

  it('is given up and made again when it does not answer a ping in time', async () => {
    const release = await connected();
    const asleep = lastClient();
    window.dispatchEvent(new Event('focus'));
    expect(asleep.pings).toBe(1);
    await vi.advanceTimersByTimeAsync(LIVENESS_TIMEOUT_MS - 100);
    expect(channel.status).toBe('connected');
    await vi.advanceTimersByTimeAsync(200);
    expect(channel.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tokenRequests).toHaveLength(2);
    lastRequest().grant();
    await vi.advanceTimersByTimeAsync(0);
    expect(lastClient()).not.toBe(asleep);
    lastClient().open();
    expect(channel.status).toBe('connected');
    release();
  });

  it('stays when it answers, and is not pinged again at every focus', async () => {
    const release = await connected();
    const client = lastClient();
    window.dispatchEvent(new Event('online'));
    client.pong();
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.pings).toBe(1);
    expect(tokenRequests).toHaveLength(1);
    expect(channel.status).toBe('connected');
    release();
  });
});
