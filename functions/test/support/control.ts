import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MqttClient } from 'mqtt';
import { vi } from 'vitest';
import type { CommandHistoryAnswer, CommandView } from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import { reliableBehaviour, type Simulator, startSimulator } from '../../../infra/local/simulator';
import { connectLocalDevice } from '../../../infra/local/device-credentials';
import { dynamo } from '../../src/aws/dynamo';
import { config } from '../../src/config';
import { handler as controlConfirmationsHandler } from '../../src/lambda/control-confirmations';
import { type Device, deviceItem } from '../../src/stores/devices';
import { call, createUser, signInAs, stack } from './api';
import { connectBrowser } from './realtime';
import { invokedAs } from '../../../infra/local/function-grants';

// The handlers run as their functions: with only the table access their roles have.
const confirmation = invokedAs('control-confirmations', controlConfirmationsHandler);

const dp = (name: string, readonly = false) => ({ dp: name, dn: name, readonly });

/** One device of every controllable kind, in a fresh organization. */
function devicesOf(orgId: string, prefix: string) {
  const base = (n: number, devName: string, devType: number, rest: Partial<Device>): Device => ({
    devID: `${prefix}:${String(n).padStart(2, '0')}`,
    devName,
    devType,
    orgID: orgId,
    onFloor: false,
    dataPoints: [],
    properties: {},
    updatedAt: new Date(0).toISOString(),
    ...rest,
  });
  return {
    light: base(1, 'LightsTest', 1, { connDev: 'light', port: 2, dataPoints: [dp('bri')] }),
    lock: base(2, 'LockTest', 3, { connDev: 'lock', port: 0, dataPoints: [dp('lock')] }),
    shades: base(3, 'ShadesTest', 3, { connDev: 'rollershades', port: 0, dataPoints: [dp('shade')] }),
    roomUnit: base(4, 'RoomUnitTest', 2, {
      connDev: 'valve',
      port: 0,
      dataPoints: [dp('temp', true), dp('fan'), dp('valve'), dp('zone'), dp('zoneTemp', true)],
    }),
    bacnet: base(5, 'BacnetTest', 7, { dataPoints: [dp('sat', true), dp('setpoint')] }),
    silent: base(6, 'SilentTest', 3, { connDev: 'lock', port: 0, dataPoints: [dp('lock')] }),
  };
}

export interface ControlScene {
  orgId: string;
  devices: ReturnType<typeof devicesOf>;
  /** Read/write, and read-only, members of the organization. */
  editor: { token: string; userId: string; userName: string };
  viewer: { token: string; userId: string };
  simulator: Simulator;
  stop(): Promise<void>;
}

/**
 * A fresh organization with its devices registered, a read/write and a read-only member, and the
 * device simulator playing its devices (randomness off: every command answered at once, unless a
 * test scripts a device otherwise) over the local broker.
 */
export async function controlScene(): Promise<ControlScene> {
  const suffix = randomUUID().slice(0, 8);
  const orgId = `ctl-${suffix}`;
  const devices = devicesOf(orgId, `CT:${suffix}`);
  for (const device of Object.values(devices)) {
    await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: deviceItem(device) }));
  }
  const editorUser = await createUser(1, [orgId], 'Erin Editor');
  const viewerUser = await createUser(0, [orgId]);
  const [editorSession, viewerSession] = await Promise.all([signInAs(editorUser), signInAs(viewerUser)]);
  const simulator = await startSimulator({
    mqttUrl: `mqtt://127.0.0.1:${stack.mqttPort}`,
    deviceSecret: stack.deviceSecret,
    devices: Object.values(devices),
    intervalMs: 0,
    behaviour: reliableBehaviour,
    seed: 1,
  });
  simulator.script(devices.silent.devID, 'silent');
  return {
    orgId,
    devices,
    editor: { token: editorSession.accessToken, userId: editorUser.userId, userName: 'Erin Editor' },
    viewer: { token: viewerSession.accessToken, userId: viewerUser.userId },
    simulator,
    stop: () => simulator.stop(),
  };
}

/** A control call (path under /api/deviceControl). */
export const control = <T = Record<string, unknown>>(path: string, body: unknown, token: string) =>
  call<T>(`/api/deviceControl/${path}`, body, { token });

export async function historyOf(token: string, devID: string, limit?: number): Promise<CommandView[]> {
  const result = await control<CommandHistoryAnswer>(
    'getCommandHistory',
    { devID, ...(limit ? { limit } : {}) },
    token,
  );
  if (result.status !== 200) throw new Error(`history: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body.commands;
}

/** Waits until the command satisfies `settled` in its device's history, and answers it. */
export function waitForCommand(
  token: string,
  devID: string,
  commandId: string,
  settled: (command: CommandView) => boolean,
  timeout = 15_000,
): Promise<CommandView> {
  return vi.waitFor(
    async () => {
      const command = (await historyOf(token, devID)).find((c) => c.commandId === commandId);
      if (!command || !settled(command)) throw new Error(`command ${commandId}: ${JSON.stringify(command)}`);
      return command;
    },
    { timeout, interval: 100 },
  );
}

/** A user's browser connection to the outcomes of their own commands in the organization. */
export async function watchOutcomes(
  user: { token: string; userId: string },
  orgId: string,
): Promise<{ client: MqttClient; received: CommandView[] }> {
  const client = await connectBrowser(user.token);
  const received: CommandView[] = [];
  client.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString()) as CommandView));
  await client.subscribeAsync(topics.commandStatus(orgId, user.userId));
  return { client, received };
}

/**
 * A device's own MQTT connection, bound to its organization and id as the broker's device rule
 * requires (what the simulator uses), for tests that play the firmware. A device the simulator plays
 * too would take over its session: give an id of its own (the default is a fresh one).
 */
export const deviceConnection = (orgId: string, devId = `fw-${randomUUID().slice(0, 8)}`) =>
  connectLocalDevice(`mqtt://127.0.0.1:${stack.mqttPort}`, stack.deviceSecret, { orgId, devId });

/** A device's announcement (cmnd 1) as the confirmation rule delivers it, received at `time`. */
export const announce = (orgId: string, devID: string, online: boolean, time: number) =>
  confirmation({
    orgId,
    outcome: online ? 'success' : 'fail',
    clientId: devID,
    receivedAt: time,
    action: online ? 'success' : 'fail',
    cmnd: 1,
    devID,
  });
