import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { localTelemetryRuleName } from '../../src/definitions';
import { type Broker, startBroker } from '../../local/broker';
import { connectLocalDevice } from '../../local/device-credentials';
import { IOT_KEEP_ALIVE_SECONDS } from '../../local/iot-policy';

/**
 * The broker's keep-alive, as IoT Core's: whatever a CONNECT asks for, the connection gets 30 to 1,200
 * s, and is closed once silent for 1.5 times that. A broker of this file's own, its timers faked, so
 * 30 minutes of silence pass at once (only the timers the connection arms from then on are faked).
 */
let broker: Broker;
const deviceSecret = randomBytes(24).toString('base64url');
beforeAll(async () => {
  broker = await startBroker({
    mqttPort: 0,
    wsPort: 0,
    deviceSecret,
    telemetryRuleName: localTelemetryRuleName,
    realtimePublicKey: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString(),
  });
});
afterAll(() => broker.close());

const clients: MqttClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});

/**
 * A device whose CONNECT asks for `keepalive` (seconds) and that then sends nothing, not even the pings
 * mqtt.js would send (its ping timer never fires); `closed()` once the broker has hung up.
 */
async function silentDevice(keepalive: number) {
  const client = await connectLocalDevice(
    `mqtt://127.0.0.1:${broker.ports.mqtt}`,
    deviceSecret,
    { orgId: `ka-${randomUUID().slice(0, 8)}`, devId: `ka-dev-${randomUUID().slice(0, 8)}` },
    { keepalive, timerVariant: { set: () => 0, clear: () => undefined } },
  );
  clients.push(client);
  let closed = false;
  client.once('close', () => (closed = true));
  return { closed: () => closed };
}

/** Moves the faked clock on by `ms`, then lets the sockets' I/O run. */
async function pass(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the keep-alive, as IoT Core applies it', () => {
  const { min, max } = IOT_KEEP_ALIVE_SECONDS;

  it('closes a connection that asked for no keep-alive (0) once silent for 1.5 x 1,200 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const device = await silentDevice(0);
    await pass(1.5 * max * 1000 - 1000);
    expect(device.closed()).toBe(false);
    await pass(2000);
    await vi.waitFor(() => expect(device.closed()).toBe(true));
  });

  it('closes a connection that asked for more than 1,200 s once silent for 1.5 x 1,200 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const device = await silentDevice(3600);
    await pass(1.5 * max * 1000 - 1000);
    expect(device.closed()).toBe(false);
    await pass(2000);
    await vi.waitFor(() => expect(device.closed()).toBe(true));
  });

  it('keeps a connection that asked for less than 30 s until silent for 1.5 x 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const device = await silentDevice(10);
    await pass(1.5 * min * 1000 - 1000);
    expect(device.closed()).toBe(false);
    await pass(2000);
    await vi.waitFor(() => expect(device.closed()).toBe(true));
  });

  it('keeps a connection within 30 to 1,200 s as asked', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const device = await silentDevice(600);
    await pass(1.5 * 600 * 1000 - 1000);
    expect(device.closed()).toBe(false);
    await pass(2000);
    await vi.waitFor(() => expect(device.closed()).toBe(true));
  });
});
