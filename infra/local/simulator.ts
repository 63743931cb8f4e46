import { type MqttClient, connect } from 'mqtt';
import { realtimeMessageSchema, topics } from '@argentum/events';
import type { Device } from '@argentum/functions/stores/devices';
import { readingAt } from '../local/demo-data';

export interface SimulatorOptions {
  mqttUrl: string;
  username: string;
  password: string;
  devices: Device[];
  /** Milliseconds between two telemetry rounds. */
  intervalMs: number;
}

/**
 * Plays every demo device: each round, every sensor publishes a reading on its telemetry topic; a
 * command on a device's control topic is answered with a confirmation, as real devices do.
 */
export async function startSimulator(options: SimulatorOptions): Promise<{ stop(): Promise<void> }> {
  const client: MqttClient = await new Promise((resolve, reject) => {
    const c = connect(options.mqttUrl, {
      username: options.username,
      password: options.password,
      clientId: `simulator-${Math.random().toString(16).slice(2, 10)}`,
      reconnectPeriod: 1000,
      protocolVersion: 4,
    });
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
  const byId = new Map(options.devices.map((d) => [d.devID, d]));
  client.subscribe('+/controldata/+');
  client.on('message', (topic, payload) => {
    const [orgId, , devId] = topic.split('/');
    if (!orgId || !devId || devId === 'success' || devId === 'fail') return;
    const device = byId.get(devId);
    let parsed;
    try {
      parsed = realtimeMessageSchema.safeParse(JSON.parse(payload.toString()));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const reply = device
      ? { ...parsed.data, action: 'success', devID: devId }
      : { ...parsed.data, action: 'fail', devID: devId };
    setTimeout(
      () => {
        client.publish(
          reply.action === 'success' ? topics.controlSuccess(orgId) : topics.controlFail(orgId),
          JSON.stringify(reply),
        );
      },
      150 + Math.random() * 350,
    );
  });

  const round = () => {
    const now = Date.now();
    for (const device of options.devices) {
      const values = readingAt(device, now, Math.random);
      if (!values) continue;
      client.publish(
        topics.sensorData(device.orgID, device.devID),
        JSON.stringify({ devID: device.devID, devType: device.devType, time: now, values }),
      );
    }
  };
  round();
  const timer = setInterval(round, options.intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await client.endAsync();
    },
  };
}
