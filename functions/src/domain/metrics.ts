/**
 * The platform's own metrics: their CloudWatch namespaces and the counts each holds. Counted through
 * the `Metrics` port (ports.ts), sent as embedded metric format (adapters/emf-metrics.ts), graphed by
 * the dashboard (infra/cdk/constructs/watch.ts).
 */

/** The service every log line and metric names (the metrics' one dimension, `service`). */
export const SERVICE_NAME = 'argentum';

/** The one dimension every metric carries (Powertools Metrics adds it): a graph or alarm names it. */
export const METRIC_DIMENSIONS = { service: SERVICE_NAME } as const;

export const PLATFORM_METRICS = {
  /** Ingest's readings per batch (functions/src/lambda/ingest.ts). */
  telemetry: {
    namespace: 'Argentum/Telemetry',
    names: ['Stored', 'DeadLettered', 'Invalid', 'UnknownDevice', 'Failed'],
  },
  /** Commands by outcome (domain/control/commands.ts, confirmations.ts). */
  commands: {
    namespace: 'Argentum/Commands',
    names: ['Sent', 'Confirmed', 'ConfirmedLate', 'Failed', 'TimedOut', 'RefusedOffline', 'NotSent'],
  },
  /** Alarm episodes, comfort and offline (domain/notifications/alarms.ts). */
  alarms: { namespace: 'Argentum/Alarms', names: ['Raised', 'Cleared'] },
  /** The vendor poller's devices per run (domain/integrations/polling.ts). */
  vendors: { namespace: 'Argentum/Vendors', names: ['Polled', 'Failed', 'Deferred', 'Unlisted'] },
} as const;
