import * as z from 'zod';

/** Command codes carried in `cmnd` (specification: states and transitions). */
export const Command = {
  deviceOnline: 1,
  powerNodeGroupFailure: 3,
  powerNodeUngroupFailure: 4,
  pairingFailed: 17,
  valueSet: 54,
  grouped: 62,
  ungrouped: 63,
  portOneValue: 201,
  portTwoValue: 202,
  portBothValue: 203,
} as const;

/** A real-time message as devices and the platform exchange it. All fields but one are optional. */
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
});
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

/** Telemetry a device publishes on `{orgId}/sensordata/{devId}`. */
export const telemetryMessageSchema = z.object({
  devID: z.string().min(1).max(64),
  devType: z.number().int().min(0).max(9),
  /** Epoch milliseconds; the ingest stamps arrival time when absent. */
  time: z.number().int().positive().optional(),
  /** One value per data point name, e.g. { temp: 22.4, hum: 41 }. */
  values: z.record(z.string().min(1).max(32), z.number().finite()),
});
export type TelemetryMessage = z.infer<typeof telemetryMessageSchema>;
