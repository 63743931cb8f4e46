/**
 * The telemetry store the deployment selected (CDK context `telemetryStore` -> the TELEMETRY_STORE
 * variable): DynamoDB by default, Timestream for LiveAnalytics for accounts that still have it. The
 * Timestream adapter and its SDK clients are loaded only when selected.
 */
import { config } from '../../config';
import type { TelemetryStore } from '../../domain/telemetry/telemetry';
import { dynamoRawTelemetryStore, dynamoTelemetryStore } from '../../stores/telemetry-dynamodb';

function timestreamStore(): TelemetryStore {
  const store = import('../../adapters/timestream-telemetry').then((m) =>
    m.timestreamTelemetryStore(m.timestreamClients(), {
      database: config.timestreamDatabase,
      table: config.timestreamTable,
    }),
  );
  return {
    write: async (points) => (await store).write(points),
    readRaw: async (...args) => (await store).readRaw(...args),
    readBuckets: async (...args) => (await store).readBuckets(...args),
  };
}

export const telemetry: TelemetryStore =
  config.telemetryStore === 'timestream' ? timestreamStore() : dynamoTelemetryStore;

/**
 * The store as ingest writes to it: with DynamoDB only the raw readings (their roll-ups follow from the
 * table's stream, lambda/telemetry-rollups.ts); Timestream computes roll-ups when queried.
 */
export const ingestTelemetryStore: TelemetryStore =
  config.telemetryStore === 'timestream' ? telemetry : dynamoRawTelemetryStore;
