import type { MqttClient } from 'mqtt';
import {
  Command,
  type CommandMessage,
  type CommandValue,
  type ConfirmationMessage,
  commandMessageSchema,
  confirmationMessageSchema,
  DeviceType,
  topics,
} from '@argentum/contracts/messaging';
import type { Device } from '@argentum/functions/stores/devices';
import { fahrenheit, readingAt } from './demo-data';
import { connectLocalDevice } from './device-credentials';

/**
 * How the simulated devices misbehave. Every chance is per event (a command, a telemetry round) and
 * drawn from the simulator's seeded random source, so a run can be replayed with the same seed.
 */
export interface SimulatorBehaviour {
  /** Chance that a command is refused (a reply on `controldata/fail`). */
  failureRate: number;
  /** Chance that a reply comes only after the 5 s reply timeout (`slowReplyMs`). */
  slowRate: number;
  /** Reply delay of a normal reply, from min to max milliseconds. */
  replyMs: readonly [number, number];
  /** Reply delay of a slow reply. */
  slowReplyMs: readonly [number, number];
  /** Chance per telemetry round that an online device drops off (no telemetry, no replies). */
  offlineRate: number;
  /** How many telemetry rounds an offline spell lasts, from min to max. */
  offlineRounds: readonly [number, number];
}

/**
 * `npm start` by default: a building on an ordinary day. About one command in a hundred refused and
 * one in two hundred answered after the 5 s timeout; a device drops off about once in 5,000 rounds
 * (at the default 30 s pace: once in about 40 hours per device, a couple of times an hour over the
 * demo's devices) for 2 to 10 minutes, as a power cut or a lost network does.
 */
const realisticBehaviour: SimulatorBehaviour = {
  failureRate: 0.01,
  slowRate: 0.005,
  replyMs: [150, 900],
  slowReplyMs: [5600, 8000],
  offlineRate: 0.0002,
  offlineRounds: [4, 20],
};

/**
 * A bad day, for tests of what bad days do (alarm floods, late replies): a command in twelve refused,
 * one in sixteen late, and each device away for 2-6 rounds once in a hundred.
 */
export const stormyBehaviour: SimulatorBehaviour = {
  failureRate: 0.08,
  slowRate: 0.06,
  replyMs: [150, 900],
  slowReplyMs: [5600, 8000],
  offlineRate: 0.01,
  offlineRounds: [2, 6],
};

/** Tests: every command answered at once and successfully, no device ever away. */
export const reliableBehaviour: SimulatorBehaviour = {
  failureRate: 0,
  slowRate: 0,
  replyMs: [20, 20],
  slowReplyMs: [5600, 5600],
  offlineRate: 0,
  offlineRounds: [1, 1],
};

/** The simulator's profiles by name (`SIMULATOR_PROFILE`; the stack's `simulatorBehaviour` option). */
export const simulatorProfiles = {
  realistic: realisticBehaviour,
  stormy: stormyBehaviour,
  reliable: reliableBehaviour,
} as const satisfies Record<string, SimulatorBehaviour>;
export type SimulatorProfile = keyof typeof simulatorProfiles;
export const DEFAULT_SIMULATOR_PROFILE: SimulatorProfile = 'realistic';

/** The profile an environment value names (unset: realistic); an unknown name is an error. */
export function simulatorProfileOf(value: string | undefined): SimulatorProfile {
  if (value === undefined || value === '') return DEFAULT_SIMULATOR_PROFILE;
  if (value in simulatorProfiles) return value as SimulatorProfile;
  throw new Error(
    `SIMULATOR_PROFILE must be one of ${Object.keys(simulatorProfiles).join(', ')} (got '${value}')`,
  );
}

/** What a test makes one device do with its next commands (instead of chance). */
export type DeviceScript = 'answer' | 'fail' | 'silent' | 'slow';

export interface SimulatorOptions {
  mqttUrl: string;
  /** The local stack's device secret: each simulated device connects with its own credential. */
  deviceSecret: string;
  devices: Device[];
  /** Milliseconds between two telemetry rounds; 0: no telemetry (commands are still answered). */
  intervalMs: number;
  /** A profile by name, or chances of its own (default: the realistic profile). */
  behaviour?: SimulatorProfile | SimulatorBehaviour;
  /** Seed of the random source (readings, chances, delays); a run with the same seed behaves alike. */
  seed?: number;
}

export interface Simulator {
  /** Makes a device answer its following commands this way (until scripted again). */
  script(devId: string, script: DeviceScript): void;
  /**
   * Takes a device offline or back (it announces it with command 1 on controldata/fail|success, unless
   * `announce` is false: a device that goes silent without a word, as a power cut leaves it).
   */
  setOnline(devId: string, online: boolean, options?: { announce?: boolean }): Promise<void>;
  /** The state a device has reported (what its telemetry carries besides its readings). */
  stateOf(devId: string): Record<string, number> | undefined;
  stop(): Promise<void>;
}

/** mulberry32: a small, fast, seedable generator; enough for plausible noise and chances. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SimulatedDevice {
  device: Device;
  /** The device's own connection (as a real device, it may use only its own topics). */
  client?: MqttClient;
  /** Controllable values, by data point: reported in telemetry, changed by commands. */
  state: Record<string, number>;
  /** Telemetry rounds left offline; 0 when online. */
  offlineRounds: number;
  script?: DeviceScript;
}

/** What a controllable device starts with, by its data points. */
const initialState: Record<string, number> = {
  bri: 60,
  lock: 1,
  shade: 40,
  fan: 3,
  valve: 5,
  zone: 22,
  state: 1,
  setpoint: 17,
  position: 40,
};

const isPortStates = (val: CommandValue): val is number[] =>
  Array.isArray(val) && val.length === 4 && val.every((v) => v === 0 || v === 1);
const isNumberIn = (val: CommandValue, min: number, max: number): val is number =>
  typeof val === 'number' && val >= min && val <= max;

/**
 * Applies a set command as the device's firmware would: the new state, or undefined when this kind of
 * device cannot take the value (the device refuses it).
 */
function applyValue(
  sim: Pick<SimulatedDevice, 'device' | 'state'>,
  message: Pick<CommandMessage, 'val' | 'port' | 'str'>,
): Record<string, number> | undefined {
  const { device } = sim;
  const { val } = message;
  if (val === undefined) return undefined;
  const points = new Set(device.dataPoints.map((p) => p.dp));
  if (device.connDev === 'lock') return isPortStates(val) ? { lock: val[0] ?? 0 } : undefined;
  if (device.connDev === 'rollershades' || device.connDev === 'shades') {
    const point = points.has('position') ? 'position' : 'shade';
    // Slide Up sends [1,1,1,1]; Pause and Slide Down both send [0,0,0,0] (the shade ends down).
    if (isPortStates(val)) return { [point]: val[0] === 1 ? 100 : 0 };
    return isNumberIn(val, 0, 100) ? { [point]: Math.round(val) } : undefined;
  }
  if (device.devType === DeviceType.powerNode)
    return isNumberIn(val, 0, 100) ? { bri: Math.round(val) } : undefined;
  if (points.has('fan') && points.has('valve')) {
    // Room unit: port 1 is the valve (0-10 in steps of 0.1), port 2 the comfort zone set point (15-30 °C
    // in steps of 0.5, when it has one), anything else the fan (1-10).
    if (String(message.port) === '1')
      return isNumberIn(val, 0, 10) ? { valve: Math.round(val * 10) / 10 } : undefined;
    if (String(message.port) === '2')
      return points.has('zone') && isNumberIn(val, 15, 30) ? { zone: Math.round(val * 2) / 2 } : undefined;
    return isNumberIn(val, 1, 10) ? { fan: Math.round(val) } : undefined;
  }
  if (device.devType === DeviceType.bacnet) {
    const point = message.str ?? 'setpoint';
    return typeof val === 'number' && points.has(point) ? { [point]: val } : undefined;
  }
  if (typeof val === 'number') return { [points.has('state') ? 'state' : 'value']: val };
  if (typeof val === 'boolean') return { state: val ? 1 : 0 };
  if (isPortStates(val)) return { state: val[0] ?? 0 };
  return undefined;
}

/**
 * Plays every demo device, each over its own connection with its own credential (the broker confines
 * a device to its organization's and its own topics): each round, every online device publishes a plausible reading (and its
 * controllable state) on its telemetry topic; each command on a device's control topic is answered
 * on `controldata/success|fail` with the command's commandId, devID, cmnd and the device's value, as
 * the firmware does: after a short delay, sometimes refused, sometimes too late, never while offline.
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const given = options.behaviour ?? DEFAULT_SIMULATOR_PROFILE;
  const behaviour = typeof given === 'string' ? simulatorProfiles[given] : given;
  const random = seededRandom(options.seed ?? Date.now());
  const between = ([min, max]: readonly [number, number]) => min + (max - min) * random();
  const simulated = new Map<string, SimulatedDevice>(
    options.devices.map((device) => [
      device.devID,
      {
        device,
        state: Object.fromEntries(
          device.dataPoints.flatMap((p) => (p.dp in initialState ? [[p.dp, initialState[p.dp] ?? 0]] : [])),
        ),
        offlineRounds: 0,
      },
    ]),
  );
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const publishReply = (sim: SimulatedDevice, outcome: 'success' | 'fail', reply: ConfirmationMessage) => {
    const checked = confirmationMessageSchema.parse(reply);
    const topic =
      outcome === 'success' ? topics.controlSuccess(sim.device.orgID) : topics.controlFail(sim.device.orgID);
    sim.client?.publish(topic, JSON.stringify(checked), { qos: 1 });
  };

  const announce = (sim: SimulatedDevice, online: boolean) =>
    publishReply(sim, online ? 'success' : 'fail', {
      action: online ? 'success' : 'offline',
      cmnd: Command.deviceOnline,
      devID: sim.device.devID,
      devType: sim.device.devType,
    });

  const answer = (sim: SimulatedDevice, command: CommandMessage) => {
    const script = sim.script;
    if (sim.offlineRounds > 0 || script === 'silent') return;
    const slow = script === 'slow' || (script === undefined && random() < behaviour.slowRate);
    const refused = script === 'fail' || (script === undefined && random() < behaviour.failureRate);
    const delay = between(slow ? behaviour.slowReplyMs : behaviour.replyMs);
    const base = {
      devID: sim.device.devID,
      devType: sim.device.devType,
      commandId: command.commandId,
      cmnd: command.cmnd,
      ...(command.str !== undefined ? { str: command.str } : {}),
      ...(command.grpID !== undefined ? { grpID: command.grpID } : {}),
    };
    later(delay, () => {
      if (sim.offlineRounds > 0) return;
      if (command.cmnd === Command.deviceOnline) {
        publishReply(sim, 'success', { ...base, action: 'success' });
        return;
      }
      const next = refused ? undefined : applyValue(sim, command);
      if (!next) {
        publishReply(sim, 'fail', {
          ...base,
          action: refused ? 'fail' : 'invalid value',
          ...(command.val !== undefined ? { val: command.val } : {}),
        });
        return;
      }
      Object.assign(sim.state, next);
      // The device reports the value it took (a brightness rounded, a shade position).
      publishReply(sim, 'success', {
        ...base,
        action: 'success',
        ...(command.val !== undefined
          ? { val: Array.isArray(command.val) ? command.val : Object.values(next)[0] }
          : {}),
      });
    });
  };

  const onCommand = (sim: SimulatedDevice, topic: string, payload: Buffer) => {
    if (topic !== topics.control(sim.device.orgID, sim.device.devID)) return;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString());
    } catch {
      return;
    }
    // Firmware ignores what it cannot read: without a valid command there is nothing to answer.
    const parsed = commandMessageSchema.safeParse(json);
    if (!parsed.success || parsed.data.devID !== sim.device.devID) return;
    answer(sim, parsed.data);
  };
  // One connection per device, a few at a time; each subscribes to its own command topic.
  const connectOne = async (sim: SimulatedDevice) => {
    const client = await connectLocalDevice(
      options.mqttUrl,
      options.deviceSecret,
      { orgId: sim.device.orgID, devId: sim.device.devID },
      { reconnectPeriod: 1000 },
    );
    sim.client = client;
    client.on('message', (topic, payload) => onCommand(sim, topic, payload));
    await client.subscribeAsync(topics.control(sim.device.orgID, sim.device.devID), { qos: 1 });
  };
  const all = [...simulated.values()];
  try {
    for (let i = 0; i < all.length; i += 8) await Promise.all(all.slice(i, i + 8).map(connectOne));
  } catch (error) {
    await Promise.all(all.map((sim) => sim.client?.endAsync()));
    throw error;
  }

  const round = () => {
    const now = Date.now();
    for (const sim of simulated.values()) {
      if (sim.offlineRounds > 0) {
        sim.offlineRounds--;
        if (sim.offlineRounds === 0) announce(sim, true);
        continue;
      }
      if (random() < behaviour.offlineRate) {
        sim.offlineRounds = Math.round(between(behaviour.offlineRounds));
        announce(sim, false);
        continue;
      }
      const values: Record<string, number> = { ...readingAt(sim.device, now, random), ...sim.state };
      // A room unit's zone settles around its comfort zone set point; it reports it in °F.
      if (sim.state.zone !== undefined && sim.device.dataPoints.some((p) => p.dp === 'zoneTemp'))
        values.zoneTemp = fahrenheit(sim.state.zone + (random() - 0.5) * 0.6);
      if (Object.keys(values).length === 0) continue;
      sim.client?.publish(
        topics.sensorData(sim.device.orgID, sim.device.devID),
        JSON.stringify({ devID: sim.device.devID, devType: sim.device.devType, time: now, values }),
      );
    }
  };
  let interval: NodeJS.Timeout | undefined;
  if (options.intervalMs > 0) {
    round();
    interval = setInterval(round, options.intervalMs);
  }

  const find = (devId: string) => {
    const sim = simulated.get(devId);
    if (!sim) throw new Error(`The simulator plays no device ${devId}`);
    return sim;
  };
  return {
    script(devId, script) {
      find(devId).script = script;
    },
    async setOnline(devId, online, options) {
      const sim = find(devId);
      // Offline until set online again (a scripted spell does not end with the rounds).
      sim.offlineRounds = online ? 0 : Number.POSITIVE_INFINITY;
      if (options?.announce !== false) announce(sim, online);
      await Promise.resolve();
    },
    stateOf: (devId) => simulated.get(devId)?.state,
    async stop() {
      if (interval) clearInterval(interval);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(all.map((sim) => sim.client?.endAsync()));
    },
  };
}
