/**
 * Device control (specification: floor plans, devices and data, sections 4, 7, 8 and 9): the tracked
 * commands' wire types and the device-reply texts, shared by the functions, the front end and the
 * simulator. Requests are in `control-requests.ts`; the messages on the wire in `@argentum/contracts/messaging`
 * (device-protocol.ts: `commandMessageSchema`, `confirmationMessageSchema`).
 */
import { GROUPED_TEXT, GROUPING_FAILED_TEXT, UNGROUPED_TEXT, UNGROUPING_FAILED_TEXT } from './devices';
import { SOMETHING_WENT_WRONG_TEXT } from './texts';

// Texts (section 8).
export const valueSetText = (val: unknown) => `Value set to ${formatValue(val)} successfully.`;
export const valueSetFailedText = (val: unknown) => `Value set to ${formatValue(val)} unsuccessfully.`;
export const valueChangedText = (val: unknown) => `Value changed to ${formatValue(val)}`;
export const deviceValueChangedText = (name: string, val: unknown) =>
  `${name}: Value changed to ${formatValue(val)}`;
export const deviceValueChangeFailedText = (name: string) => `${name}: Value change failed`;
/** A lock's state as the screens word it: its `lock` point (or a lock command's first value) 1 is locked. */
export const lockStateText = (locked: boolean) => (locked ? 'Locked' : 'Unlocked');
export const lockedText = (name: string) => `${name}: is ${lockStateText(true)}`;
export const unlockedText = (name: string) => `${name}: is ${lockStateText(false)}`;
export const VALUE_CHANGE_FAILED_TEXT = 'Value change failed';
export const VALUE_HAS_BEEN_SET_TEXT = 'Value has been set successfully';
export const USER_UNAUTHORIZED_TEXT = 'User is unAuthorized';
export const DEVICE_ONLINE_TEXT = 'Device Online';
export const DEVICE_OFFLINE_TEXT = 'Device Offline';
export const PAIRING_FAILED_TEXT = 'Pairing of device is unsuccessful.';
/** Ours: a device's success after the reply timeout, after the text of the value it confirmed. */
export const confirmedLateText = (text: string) => `${text} (confirmed late)`;
/** The `action` recorded for a command refused because presence knows its device is offline. */
export const DEVICE_OFFLINE_ACTION = 'device offline';
// No confirmation within the reply timeout: SOMETHING_WENT_WRONG_TEXT (texts.ts).

/** A value as the texts show it: lists as [1,0,0,0]. */
export function formatValue(val: unknown): string {
  return Array.isArray(val) ? `[${val.join(',')}]` : String(val);
}

// Values (sections 4, 5 and 9).
export const LOCK_VALUE = [1, 0, 0, 0] as const;
export const UNLOCK_VALUE = [0, 0, 0, 0] as const;
export const SHADES_UP_VALUE = [1, 1, 1, 1] as const;
/** Pause and Slide Down both send this. */
export const SHADES_DOWN_VALUE = [0, 0, 0, 0] as const;
export const BRIGHTNESS_RANGE = { min: 0, max: 100, step: 1 } as const;
export const FAN_SPEED_RANGE = { min: 1, max: 10, step: 1 } as const;
export const VALVE_RANGE = { min: 0, max: 10, step: 0.1 } as const;
/** The room unit's comfort zone: its zone temperature set point (°C), 15 to 30 in steps of 0.5. */
export const COMFORT_ZONE_RANGE = { min: 15, max: 30, step: 0.5 } as const;
/**
 * A room unit's ports (setFanValveValue / getFanValveValue): the fan, the valve and the comfort zone
 * set point; each reports its value as the data point of the same name (fan, valve, zone).
 */
export const ROOM_UNIT_PORTS = { fan: 0, valve: 1, zone: 2 } as const;
export const SHADE_RANGE = { min: 0, max: 100, step: 1 } as const;
/** Power node ports: Select (none), Port-1 (0), Port-2 (1), Both (2). */
export const POWER_NODE_PORTS = [
  { label: 'Port-1', port: 0 },
  { label: 'Port-2', port: 1 },
  { label: 'Both', port: 2 },
] as const;
/** Power node level shown for a brightness: 0 none, up to 40 -> 20, 60 and above -> 100, else 60. */
export function powerNodeLevel(value: number): 0 | 20 | 60 | 100 {
  if (value <= 0) return 0;
  if (value <= 40) return 20;
  if (value >= 60) return 100;
  return 60;
}

// Tracked commands.

/**
 * requested (recorded) -> sent (published) -> confirmed | failed (the device's word within the reply
 * timeout, DEVICE_REPLY_TIMEOUT_MS) | timed out (no word in time). A success after the timeout moves a
 * timed-out command on to confirmed late (the device did act: its word, with its value, is
 * `lateReply`); a late failure is kept as `lateReply` of the timed-out command.
 */
export const commandStatuses = [
  'requested',
  'sent',
  'confirmed',
  'failed',
  'timed out',
  'confirmed late',
] as const;
export type CommandStatus = (typeof commandStatuses)[number];
export const isPending = (status: CommandStatus) => status === 'requested' || status === 'sent';

/** The control calls that send a command. */
export const controlCalls = [
  'setBrightness',
  'setRollerShadesValue',
  'setFanValveValue',
  'setbacnetinfo',
  'testDevice',
  'setValueOnDevices',
] as const;
export type ControlCall = (typeof controlCalls)[number];

/**
 * The third-party writes (/integrations/*), tracked like the control calls: recorded when asked,
 * confirmed by the vendor's answer and the state its cloud reports after it, or failed with its error.
 */
export const vendorCalls = [
  'setRyseGearPosition',
  'setGoogleThermostatTemp',
  'setGoogleThermostatMode',
  'setGoogleThermostatEco',
  'EcobeeSetTemperatureAndMode',
] as const;
export type VendorCall = (typeof vendorCalls)[number];
export const isVendorCall = (call: string): call is VendorCall =>
  (vendorCalls as readonly string[]).includes(call);

/** Every call a device's command history records. */
export const commandCalls = [...controlCalls, ...vendorCalls] as const;
export type CommandCall = (typeof commandCalls)[number];

export type ControlValue = number | string | boolean | number[];

/** A device's word on a command (a confirmation on `{orgId}/controldata/success|fail`). */
export interface CommandReply {
  outcome: 'success' | 'fail';
  /** The confirmation's action ('success', or what went wrong). */
  action: string;
  val?: ControlValue;
  str?: string;
  /** When it arrived (ISO 8601). */
  at: string;
  /** A vendor's answer in the platform's words: the documented text, or what went wrong. */
  message?: string;
}

/** One command as its device's history shows it: who asked what, when, and how it ended. */
export interface CommandView {
  commandId: string;
  devID: string;
  devName: string;
  devType: number;
  call: CommandCall;
  /** The MQTT command code; 0 for a vendor's cloud. */
  cmnd: number;
  val?: ControlValue;
  /** BACnet: the point written. */
  key?: string;
  port?: number | string;
  requestedBy: { userId: string; userName: string };
  requestedAt: string;
  sentAt?: string;
  /** When the command times out, or timed out, without the device's word. */
  deadlineAt: string;
  /** Timed out is derived on read: a pending command past its deadline reads as timed out. */
  status: CommandStatus;
  /** The device's word within the timeout. */
  reply?: CommandReply;
  /** The device's word after the timeout: 'confirmed late' on a success, still 'timed out' on a failure. */
  lateReply?: CommandReply;
  /** The documented text of the outcome; absent while pending. */
  text?: string;
}

/** The answer of a control call: the command is recorded and on its way to the device. */
export interface CommandSentAnswer {
  commandId: string;
  status: CommandStatus;
  deadlineAt: string;
  /** Settled at once (the device is offline: 'Device Offline'), as the history records it. */
  command?: CommandView;
}

/**
 * setValueOnDevices: "response success" (the specification), with one command per device, each tracked
 * on its own (`status` 'sent' or settled at once).
 */
export interface CommandsSentAnswer {
  status: 'success';
  commands: (CommandSentAnswer & { devID: string })[];
}

/** getCommandHistory: newest first. */
export interface CommandHistoryAnswer {
  devID: string;
  commands: CommandView[];
}

/** getLockValue / getFanValveValue: the device's last reported state of a port. */
export interface DeviceStateAnswer {
  devID: string;
  port?: number | string;
  /**
   * The device's last word on the port: the value it confirmed (source 'device'), unless its telemetry
   * of the port's point is newer and says otherwise ('telemetry').
   */
  val?: ControlValue;
  /** When the device said so, on its own clock (`onDeviceClock`), where its readings' times are. */
  reportedAt?: string;
  source: 'device' | 'telemetry' | 'none';
  /** The device's telemetry of the points this call reports (lock; fan and valve), when it sends them. */
  latest?: Record<string, number>;
  /** The newest command to the device, so a panel can show one still pending. */
  lastCommand?: CommandView;
}

export const COMMAND_HISTORY_DEFAULT_LIMIT = 20;
export const COMMAND_HISTORY_MAX_LIMIT = 100;

/** What a command's text needs of its device. */
export interface ControlledDevice {
  devName: string;
  connDev?: string;
}

/**
 * The documented text of a command's outcome, or undefined while it is pending. Confirmed late: the
 * text of the value the device confirmed, marked late; a late failure leaves the timed-out text.
 */
export function commandText(
  command: Pick<CommandView, 'call' | 'status' | 'val' | 'reply' | 'lateReply'>,
  device: ControlledDevice,
): string | undefined {
  if (isPending(command.status)) return undefined;
  if (command.status === 'failed' && command.reply?.action === DEVICE_OFFLINE_ACTION)
    return DEVICE_OFFLINE_TEXT;
  if (isVendorCall(command.call)) {
    return command.status === 'timed out' ? SOMETHING_WENT_WRONG_TEXT : command.reply?.message;
  }
  if (command.status === 'confirmed late') {
    const { lateReply, ...rest } = command;
    const text = commandText(
      { ...rest, status: 'confirmed', ...(lateReply ? { reply: lateReply } : {}) },
      device,
    );
    return text === undefined ? undefined : confirmedLateText(text);
  }
  const val = command.reply?.val ?? command.val;
  if (command.call === 'testDevice') {
    return command.status === 'confirmed' ? DEVICE_ONLINE_TEXT : DEVICE_OFFLINE_TEXT;
  }
  if (command.status === 'timed out') return SOMETHING_WENT_WRONG_TEXT;
  if (device.connDev === 'lock') {
    if (command.status === 'failed') return deviceValueChangeFailedText(device.devName);
    return Array.isArray(val) && val[0] === 1 ? lockedText(device.devName) : unlockedText(device.devName);
  }
  return command.status === 'confirmed' ? valueSetText(val) : valueSetFailedText(val);
}

/**
 * The documented text of a device's message on `controldata/success|fail` by its `cmnd`, for messages
 * that are not replies to a tracked command (device online/offline, pairing, grouping, port values).
 */
export function deviceMessageText(
  outcome: 'success' | 'fail',
  message: { cmnd?: number; val?: unknown },
): string | undefined {
  const success = outcome === 'success';
  switch (message.cmnd) {
    case 1:
      return success ? DEVICE_ONLINE_TEXT : DEVICE_OFFLINE_TEXT;
    case 17:
      return success ? undefined : PAIRING_FAILED_TEXT;
    case 3:
      return success ? undefined : GROUPING_FAILED_TEXT;
    case 4:
      return success ? undefined : UNGROUPING_FAILED_TEXT;
    case 62:
      return success ? GROUPED_TEXT : GROUPING_FAILED_TEXT;
    case 63:
      return success ? UNGROUPED_TEXT : UNGROUPING_FAILED_TEXT;
    case 54:
      return success ? valueSetText(message.val) : valueSetFailedText(message.val);
    case 201:
    case 202:
    case 203:
      return success ? valueChangedText(message.val) : VALUE_CHANGE_FAILED_TEXT;
    default:
      return undefined;
  }
}
