import { emfMetrics, flushingMetrics } from '../adapters/emf-metrics';
import { basicIngestReadings } from '../adapters/basic-ingest-readings';
import { withVendorDeadline } from '../adapters/vendors/http';
import { assertConfigured } from '../config';
import { pollVendorDevices, type VendorPollPorts } from '../domain/integrations/polling';
import { PLATFORM_METRICS } from '../domain/metrics';
import { ENV } from '../environment';
import { log } from '../http/log';
import { dynamoDevices } from '../stores/devices';
import { dynamoPolledDevices } from '../stores/vendor-poll';
import { logger } from './wiring/core';
import { vendorReadPorts } from './wiring/integrations';
import { type ScheduledEvent, scheduledTime } from './wiring/schedule';

assertConfigured(process.env, [ENV.telemetryRuleName]);

/** Time kept back from the Lambda's own limit: the run ends its reads and counts what it did. */
const RESERVE_MS = 5_000;

const ports: VendorPollPorts = {
  polled: dynamoPolledDevices,
  devices: dynamoDevices,
  ...vendorReadPorts(),
  telemetry: basicIngestReadings,
  logger,
  metrics: emfMetrics(PLATFORM_METRICS.vendors.namespace),
};

/**
 * The vendor poller (EventBridge schedule, every 5 minutes; a timer in the local stack): reads the
 * linked Nest and Ecobee thermostats and Ryse shades in their vendors' clouds and sends each reading on
 * as the device's telemetry (domain/integrations/polling.ts).
 */
export const handler = flushingMetrics(async function poll(
  event: ScheduledEvent = {},
  context?: { getRemainingTimeInMillis(): number },
) {
  const now = new Date(scheduledTime(event));
  const deadline = Date.now() + (context ? context.getRemainingTimeInMillis() - RESERVE_MS : 50_000);
  const result = await withVendorDeadline(deadline, () => pollVendorDevices(ports, now));
  log('info', 'vendor poll', result);
  return result;
});
