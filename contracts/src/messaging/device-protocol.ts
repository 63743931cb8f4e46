import * as z from 'zod';

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
export const commandCodeSchema = z.literal(commandCodes, {
  error: `cmnd must be one of ${commandCodes.join(', ')}.`,
});

/** A device id (MAC string) as messages carry it. */
export const messageDevId = z.string().trim().min(1).max(64);

/**
 * A value sent to or reported by a device: a number (brightness, fan, valve, shade position, BACnet
 * point), a text (BACnet), a switch, or a list of port states such as [1,0,0,0] (lock, shades).
 */
export const commandValueSchema = z.union(
  [z.number().finite(), z.string().max(64), z.boolean(), z.array(z.number().finite()).max(8)],
  { error: 'val must be a number, a text, true or false, or a list of up to 8 numbers.' },
);
export type CommandValue = z.infer<typeof commandValueSchema>;

/**
 * Correlates a command with its confirmation. The specification's confirmations carry only action,
 * val and devID: two commands to one device within the 5 s (a slider moved twice, a lock toggled back)
 * could not be told apart, a late reply to the first would settle the second, and a redelivered
 * confirmation could not be recognized. Devices echo the id they were sent.
 */
export const commandIdSchema = z
  .string()
  .regex(/^[0-9a-z]{9}-[0-9a-f]{12}$/, { error: 'commandId is not a command id.' });

/** A real-time message as devices and the platform exchange it. All fields are optional. */
export const realtimeMessageSchema = z.object({
  cmnd: z.number().int().optional(),
  action: z.string().optional(),
  grpID: z.union([z.string(), z.number()]).optional(),
  devID: z.string().optional(),
  devType: z.number().int().min(0).max(9).optional(),
  actionHandler: z.string().optional(),
  val: z.unknown().optional(),
  str: z.string().optional(),
  macs: z.array(z.string()).optional(),
  usrID: z.string().optional(),
  mState: z.union([z.literal(0), z.literal(1)]).optional(),
  commandId: z.string().optional(),
});
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

/**
 * A command the platform publishes to `{orgId}/controldata/{devId}` (through the IoT data plane only:
 * browsers may not publish there). Strict: the publisher validates it before sending, the simulator on
 * receipt.
 */
export const commandMessageSchema = z.strictObject({
  commandId: commandIdSchema,
  cmnd: commandCodeSchema,
  devID: messageDevId,
  devType: z.number().int().min(0).max(9),
  /** What the device is asked to do: 'set' a value, 'test' (answer whether it is online). */
  action: z.enum(['set', 'test']),
  /** The call the command comes from (e.g. 'setBrightness'), for the device's log. */
  actionHandler: z.string().max(40),
  val: commandValueSchema.optional(),
  /** BACnet: the point (key) the value is written to. */
  str: z.string().max(64).optional(),
  port: z.union([z.number().int().min(0).max(8), z.string().max(8)]).optional(),
  grpID: z.union([z.string().max(16), z.number().int()]).optional(),
  macs: z.array(messageDevId).max(500).optional(),
  /** The user who asked (their id). */
  usrID: z.string().max(64),
});
export type CommandMessage = z.infer<typeof commandMessageSchema>;

/**
 * What a device publishes on `{orgId}/controldata/success` or `/fail`: its word on a command (with the
 * command's `commandId`), or news of its own (device online or offline, pairing failed: no
 * `commandId`). Fields beyond these are dropped.
 */
export const confirmationMessageSchema = z.object({
  action: z.string().min(1).max(32),
  devID: messageDevId,
  commandId: commandIdSchema.optional(),
  cmnd: commandCodeSchema.optional(),
  val: commandValueSchema.optional(),
  str: z.string().max(200).optional(),
  devType: z.number().int().min(0).max(9).optional(),
  grpID: z.union([z.string().max(16), z.number().int()]).optional(),
  macs: z.array(messageDevId).max(500).optional(),
  usrID: z.string().max(64).optional(),
  mState: z.union([z.literal(0), z.literal(1)]).optional(),
  actionHandler: z.string().max(40).optional(),
});
export type ConfirmationMessage = z.infer<typeof confirmationMessageSchema>;

/**
 * The largest magnitude a reading's value may have. Every data point a device reports (degrees, %,
 * ppm, lux, W, Wh counters) fits with room, and an hour's roll-up sums stay far inside what DynamoDB's
 * document client takes (±2^53): a value of 2^53 + 1 or 1e300 comes from a broken device.
 */
export const TELEMETRY_VALUE_LIMIT = 1e9;

/** Telemetry a device publishes on `{orgId}/sensordata/{devId}`. */
export const telemetryMessageSchema = z.object({
  devID: z.string().min(1).max(64),
  devType: z.number().int().min(0).max(9),
  /** Epoch milliseconds; the ingest stamps arrival time when absent, and refuses one far from it. */
  time: z.number().int().positive().optional(),
  /** One value per data point name, e.g. { temp: 22.4, hum: 41 }: finite, within ±TELEMETRY_VALUE_LIMIT. */
  values: z.record(
    z.string().min(1).max(32),
    z.number().finite().min(-TELEMETRY_VALUE_LIMIT).max(TELEMETRY_VALUE_LIMIT),
  ),
});
export type TelemetryMessage = z.infer<typeof telemetryMessageSchema>;
