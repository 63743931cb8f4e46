/** One reading of a device: a value per data point at one time. */
export interface TelemetryPoint {
  devId: string;
  /** Epoch milliseconds. */
  time: number;
  values: Record<string, number>;
}

/** Where telemetry is kept. DynamoDB by default; Timestream for accounts that have it. */
export interface TelemetryStore {
  write(points: readonly TelemetryPoint[]): Promise<void>;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
