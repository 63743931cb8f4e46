import { telemetryFilter } from '@argentum/events';
import { handler as ingest } from '@argentum/functions/lambda/ingest';
import type { Broker } from './broker';

/**
 * Plays the IoT topic rule `SELECT *, topic(1) AS orgId FROM '+/sensordata/+'`: every telemetry
 * message becomes one invocation of the ingest handler, as IoT Core would invoke the Lambda.
 */
export function startRuleRunner(broker: Broker): { stop(): Promise<void>; drained(): Promise<void> } {
  const inFlight = new Set<Promise<unknown>>();
  const deliver = (packet: { topic: string; payload: Buffer | string }, callback: () => void) => {
    callback();
    let message: unknown;
    try {
      message = JSON.parse(packet.payload.toString());
    } catch {
      return; // IoT rules skip payloads that are not JSON for a JSON SELECT.
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const orgId = packet.topic.split('/')[0];
    const invocation = ingest({ ...(message as Record<string, unknown>), orgId }).catch((error: unknown) =>
      console.error('ingest failed', error),
    );
    inFlight.add(invocation);
    void invocation.finally(() => inFlight.delete(invocation));
  };
  broker.aedes.subscribe(telemetryFilter, deliver, () => undefined);
  const drained = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  return {
    drained,
    async stop() {
      await new Promise<void>((resolve) =>
        broker.aedes.unsubscribe(telemetryFilter, deliver, () => resolve()),
      );
      await drained();
    },
  };
}
