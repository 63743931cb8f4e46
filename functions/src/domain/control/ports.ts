import type { CommandCall, CommandReply, CommandStatus, ControlValue } from '@argentum/contracts';
import type { CommandMessage } from '@argentum/contracts/messaging';

/** What control needs of a registered device (the device registry is the devices domain's). */
export interface ControlDevice {
  devID: string;
  orgID: string;
  devName: string;
  devType: number;
  connDev?: string;
  /** Its data points; which it reports only (`readonly`). */
  dataPoints: { dp: string; readonly?: boolean }[];
  /** Latest telemetry value per data point, the time of each, and of the newest reading (epoch ms). */
  latest?: Record<string, number>;
  latestAt?: Record<string, number>;
  lastSeen?: number;
  /** How far its clock runs ahead of the broker's (ms; Device `clockOffset`). */
  clockOffset?: number;
  /** Whether presence knows the device online (domain/devices/presence.ts); false: commands are refused. */
  online?: boolean;
}

export interface DeviceDirectory {
  get(devId: string): Promise<ControlDevice | undefined>;
}

/** A command as recorded: its view's fields plus what the platform keeps to itself. */
export interface CommandRecord {
  commandId: string;
  devID: string;
  orgID: string;
  devName: string;
  devType: number;
  connDev?: string;
  call: CommandCall;
  cmnd: number;
  val?: ControlValue;
  key?: string;
  port?: number | string;
  requestedBy: { userId: string; userName: string };
  /** Epoch ms. */
  requestedAt: number;
  sentAt?: number;
  /** Epoch ms after which a command without the device's word has timed out. */
  deadlineAt: number;
  /** As stored: a pending status past its deadline is 'timed out' on read (`effectiveStatus`). */
  status: CommandStatus;
  reply?: CommandReply;
  lateReply?: CommandReply;
}

/** The device's last word on a port: a value it confirmed. */
export interface ReportedState {
  devID: string;
  port: string;
  val: ControlValue;
  /** Epoch ms. */
  reportedAt: number;
  commandId: string;
}

/** Where commands and the devices' confirmed states are kept (stores/commands.ts). */
export interface CommandStore {
  /** Records a new command ('requested'). */
  create(command: CommandRecord): Promise<void>;
  /** requested -> sent, with the deadline counted from now; false when it has moved on already. */
  markSent(devId: string, commandId: string, sentAt: number, deadlineAt: number): Promise<boolean>;
  /** requested -> failed (it could not be published). */
  markUnsent(devId: string, commandId: string, reply: CommandReply): Promise<void>;
  get(devId: string, commandId: string): Promise<CommandRecord | undefined>;
  /** The newest commands of a device, newest first. */
  recent(devId: string, limit: number): Promise<CommandRecord[]>;
  /**
   * Records the device's word. 'in time': pending and not past its deadline -> confirmed or failed.
   * 'late': past its deadline (pending or already recorded timed out) and no late word yet -> confirmed
   * late (a success) or timed out (a failure), with `lateReply`. False when the condition does not
   * hold (e.g. a redelivery).
   */
  recordReply(
    devId: string,
    commandId: string,
    reply: CommandReply,
    receivedAt: number,
    when: 'in time' | 'late',
  ): Promise<boolean>;
  /** Records a pending command past its deadline as timed out; false when it was settled meanwhile. */
  recordTimeout(devId: string, commandId: string, now: number): Promise<boolean>;
  /** Keeps a newer confirmed value of a port; an older one never overwrites it. */
  recordState(state: ReportedState): Promise<void>;
  reportedState(devId: string, port: string): Promise<ReportedState | undefined>;
}

/** Publishes a message on an MQTT topic (IoT data plane). */
export interface MessagePublisher {
  publish(topic: string, message: CommandMessage | Record<string, unknown>): Promise<void>;
}
