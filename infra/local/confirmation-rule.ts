import type { AedesPublishPacket, Client } from 'aedes';
import { confirmationTopic } from '@argentum/contracts/messaging';
import type { Broker } from './broker';
import { asFunction } from './function-grants';

/**
 * What the rule's SQL makes of a JSON object published on a confirmation topic: its fields, then
 * topic(1) AS orgId, topic(3) AS outcome, clientid() AS clientId, timestamp() AS receivedAt.
 * Undefined for what the WHERE clause drops: another topic, or a `devID` that is not the client's.
 */
export function confirmationRuleEvent(
  topic: string,
  message: Record<string, unknown>,
  clientId: string,
  receivedAt: number,
): Record<string, unknown> | undefined {
  const where = confirmationTopic(topic);
  if (!where || message.devID !== clientId) return undefined;
  return { ...message, orgId: where.orgId, outcome: where.outcome, clientId, receivedAt };
}

/** IoT Core retries a failed asynchronous Lambda invocation twice. */
const ATTEMPTS = 3;

/**
 * Plays the IoT topic rule `SELECT *, topic(1) AS orgId, topic(3) AS outcome, clientid() AS clientId,
 * timestamp() AS receivedAt FROM '+/controldata/+' WHERE (topic(3) = 'success' OR topic(3) = 'fail') AND
 * devID = clientid()`
 * (infra/cdk/constructs/control-confirmations.ts) and its Lambda action: each
 * device confirmation invokes the confirmation handler (functions/src/lambda/control-confirmations.ts).
 */
export function startConfirmationRule(broker: Broker): { stop(): Promise<void>; drained(): Promise<void> } {
  const inFlight = new Set<Promise<void>>();

  const invoke = async (event: Record<string, unknown>) => {
    // The Lambda's entry point, loaded once the stack has set the environment it reads.
    const { handler } = await import('@argentum/functions/lambda/control-confirmations');
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        await asFunction('control-confirmations', () => handler(event));
        return;
      } catch (error) {
        if (attempt === ATTEMPTS) {
          console.error('confirmation: failed 3 times and was dropped', error);
          return;
        }
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  };

  // The broker's 'publish' event names the publishing client, which the rule's clientid() returns (the
  // device's authenticated client id = its id; "n/a" for what did not come over MQTT).
  const deliver = (packet: AedesPublishPacket, client: Client | null) => {
    const where = confirmationTopic(packet.topic);
    if (!where) return;
    let message: unknown;
    try {
      message = JSON.parse(packet.payload.toString());
    } catch {
      return; // A JSON SELECT skips payloads that are not JSON.
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const event = confirmationRuleEvent(
      packet.topic,
      message as Record<string, unknown>,
      client ? client.id : 'n/a',
      Date.now(),
    );
    if (!event) return;
    const run = invoke(event).finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  broker.aedes.on('publish', deliver);

  const drained = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  return {
    drained,
    async stop() {
      broker.aedes.off('publish', deliver);
      await drained();
    },
  };
}
