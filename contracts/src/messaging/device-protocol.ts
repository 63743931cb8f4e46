import * as z from 'zod/mini';
import '../schema-messages';
import { isStorableKey, isStorableNumber, UNSTORABLE_KEY_TEXT, UNSTORABLE_NUMBER_TEXT } from '../storable';
import type { ConfirmationOutcome } from './topics';

/**
 * Command codes carried in `cmnd` (specification: states and transitions). A command the platform
 * sends and the device's confirmation of it carry the same code; `action` of the confirmation says
 * how it went ('success', or the failure).
 */
export const Command = {
  /** Test a node / device online (success) or offline (fail). */
  deviceOnline: 1,
  powerNodeGroupFailure: 3,
  powerNodeUngroupFailure: 4,
  pairingFailed: 17,
  /** Set a value (brightness, lock, shades, fan, valve, BACnet point). */
  valueSet: 54,
  grouped: 62,
  ungrouped: 63,
  portOneValue: 201,
  portTwoValue: 202,
  portBothValue: 203,
} as const;
export type CommandCode = (typeof Command)[keyof typeof Command];
export const commandCodes = Object.values(Command) as CommandCode[];

/** `cmnd`: one of the documented codes. */
export const commandCodeSchema = z.lazy(() =>
  z.literal(commandCodes, {
    error: `cmnd must be one of ${commandCodes.join(', ')}.`,
  }),
);

/** A device id (MAC string) as messages carry it. */
export const messageDevId = z.lazy(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(64)));

/** A number of a device's message that the store can hold (`isStorableNumber`); checks may follow. */
const storableNumber = () =>
  z.number().check(z.refine(isStorableNumber, { error: `The number ${UNSTORABLE_NUMBER_TEXT}.` }));

/**
 * A value sent to or reported by a device: a number (brightness, fan, valve, shade position, BACnet
 * point), a text (BACnet), a switch, or a list of port states such as [1,0,0,0] (lock, shades).
 */
export const commandValueSchema = z.lazy(() =>
  z.union(
    [
      storableNumber(),
      z.string().check(z.maxLength(64)),
      z.boolean(),
      z.array(storableNumber()).check(z.maxLength(8)),
    ],
    { error: 'val must be a number, a text, true or false, or a list of up to 8 numbers.' },
  ),
);
export type CommandValue = z.infer<typeof commandValueSchema>;

/**
 * Correlates a command with its confirmation. The specification's confirmations carry only action,
 * val and devID: two commands to one device within the 5 s (a slider moved twice, a lock toggled back)
 * could not be told apart, a late reply to the first would settle the second, and a redelivered
 * confirmation could not be recognized. Devices echo the id they were sent.
 */
export const commandIdSchema = z.lazy(() =>
  z.string().check(z.regex(/^[0-9a-z]{9}-[0-9a-f]{12}$/, { error: 'commandId is not a command id.' })),
);

/** A real-time message as devices and the platform exchange it. All fields are optional. */
export const realtimeMessageSchema = z.lazy(() =>
  z.object({
    cmnd: z.optional(z.number().check(z.int())),
    action: z.optional(z.string()),
    grpID: z.optional(z.union([z.string(), z.number()])),
    devID: z.optional(z.string()),
    devType: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(9))),
    actionHandler: z.optional(z.string()),
    val: z.optional(z.unknown()),
    str: z.optional(z.string()),
    macs: z.optional(z.array(z.string())),
    usrID: z.optional(z.string()),
    mState: z.optional(z.union([z.literal(0), z.literal(1)])),
    commandId: z.optional(z.string()),
  }),
);
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

/**
 * A command the platform publishes to `{orgId}/controldata/{devId}` (through the IoT data plane only:
 * browsers may not publish there). Strict: the publisher validates it before sending, the simulator on
 * receipt.
 */
export const commandMessageSchema = z.lazy(() =>
  z.strictObject({
    commandId: commandIdSchema,
    cmnd: commandCodeSchema,
    devID: messageDevId,
    devType: z.number().check(z.int(), z.minimum(0), z.maximum(9)),
    /** What the device is asked to do: 'set' a value, 'test' (answer whether it is online). */
    action: z.enum(['set', 'test']),
    /** The call the command comes from (e.g. 'setBrightness'), for the device's log. */
    actionHandler: z.string().check(z.maxLength(40)),
    val: z.optional(commandValueSchema),
    /** BACnet: the point (key) the value is written to. */
    str: z.optional(z.string().check(z.maxLength(64))),
    port: z.optional(
      z.union([z.number().check(z.int(), z.minimum(0), z.maximum(8)), z.string().check(z.maxLength(8))]),
    ),
    grpID: z.optional(z.union([z.string().check(z.maxLength(16)), storableNumber().check(z.int())])),
    macs: z.optional(z.array(messageDevId).check(z.maxLength(500))),
    /** The user who asked (their id). */
    usrID: z.string().check(z.maxLength(64)),
  }),
);
export type CommandMessage = z.infer<typeof commandMessageSchema>;

/**
 * What a device publishes on `{orgId}/controldata/success` or `/fail`: its word on a command (with the
 * command's `commandId`), or news of its own (device online or offline, pairing failed: no
 * `commandId`). Fields beyond these are dropped.
 */
export const confirmationMessageSchema = z.lazy(() =>
  z.object({
    action: z.string().check(z.minLength(1), z.maxLength(32)),
    devID: messageDevId,
    commandId: z.optional(commandIdSchema),
    cmnd: z.optional(commandCodeSchema),
    val: z.optional(commandValueSchema),
    str: z.optional(z.string().check(z.maxLength(200))),
    devType: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(9))),
    grpID: z.optional(z.union([z.string().check(z.maxLength(16)), storableNumber().check(z.int())])),
    macs: z.optional(z.array(messageDevId).check(z.maxLength(500))),
    usrID: z.optional(z.string().check(z.maxLength(64))),
    mState: z.optional(z.union([z.literal(0), z.literal(1)])),
    actionHandler: z.optional(z.string().check(z.maxLength(40))),
  }),
);
export type ConfirmationMessage = z.infer<typeof confirmationMessageSchema>;

/** What a grouping failure is about: devices joining a group, or leaving it. */
export const groupingKinds = ['grouping', 'ungrouping'] as const;
export type GroupingKind = (typeof groupingKinds)[number];

/**
 * A device's grouping failure that arrives on its own: a word on `controldata/fail` with cmnd 62
 * (grouping) or 63 (ungrouping), 3 or 4 from a power node, and no `commandId` (a grouping's success is
 * answered by its call). What it is about, or undefined for any other word. The one definition: the
 * confirmation function pushes these to the device's floor (domain/control/device-word.ts), whose
 * open pages announce them.
 */
export function groupingFailureOf(
  outcome: ConfirmationOutcome,
  message: Pick<ConfirmationMessage, 'cmnd' | 'commandId'>,
): GroupingKind | undefined {
  if (outcome !== 'fail' || message.commandId !== undefined) return undefined;
  switch (message.cmnd) {
    case Command.grouped:
    case Command.powerNodeGroupFailure:
      return 'grouping';
    case Command.ungrouped:
    case Command.powerNodeUngroupFailure:
      return 'ungrouping';
    default:
      return undefined;
  }
}

/**
 * The largest magnitude a reading's value may have. Every data point a device reports (degrees, %,
 * ppm, lux, W, Wh counters) fits with room, and an hour's roll-up sums stay far inside what DynamoDB's
 * document client takes (±2^53): a value of 2^53 + 1 or 1e300 comes from a broken device.
 */
export const TELEMETRY_VALUE_LIMIT = 1e9;

/**
 * The most data points a device declares (the device calls take at most this many), and so the most
 * values one reading may carry: the device's latest values take each in one conditional update, whose
 * expression DynamoDB caps at 4 KB.
 */
export const MAX_DATA_POINTS = 64;

/** Telemetry a device publishes on `{orgId}/sensordata/{devId}`. */
export const telemetryMessageSchema = z.lazy(() =>
  z.object({
    devID: z.string().check(z.minLength(1), z.maxLength(64)),
    devType: z.number().check(z.int(), z.minimum(0), z.maximum(9)),
    /** Epoch milliseconds; the ingest stamps arrival time when absent, and refuses one far from it. */
    time: z.optional(z.number().check(z.int(), z.positive())),
    /**
     * One value per data point name, e.g. { temp: 22.4, hum: 41 }: finite, within ±TELEMETRY_VALUE_LIMIT,
     * at most MAX_DATA_POINTS of them, each a number and a name the store can hold (contracts' storable).
     */
    values: z
      .record(
        z.string().check(z.minLength(1), z.maxLength(32)),
        storableNumber().check(z.minimum(-TELEMETRY_VALUE_LIMIT), z.maximum(TELEMETRY_VALUE_LIMIT)),
      )
      .check(
        z.refine((values) => Object.keys(values).length <= MAX_DATA_POINTS, {
          message: `more than ${MAX_DATA_POINTS} data points`,
        }),
        z.refine((values) => Object.keys(values).every(isStorableKey), {
          error: (issue) =>
            `data point '${Object.keys(issue.input as object).find((key) => !isStorableKey(key))}' ${UNSTORABLE_KEY_TEXT}.`,
        }),
      ),
  }),
);
export type TelemetryMessage = z.infer<typeof telemetryMessageSchema>;
