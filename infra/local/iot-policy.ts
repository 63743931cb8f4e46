import type { Context } from 'aws-lambda';
import {
  AUTHORIZER_ANSWER_LIMITS,
  AUTHORIZER_POLICY_LIMITS,
} from '@argentum/functions/domain/realtime/policy';
import { invoke } from './lambda-invoke';

/**
 * IoT Core's evaluation of the policy documents a custom authorizer answers, for the local broker:
 * at most 10 documents of at most 2,048 characters (else the connection is refused), statements with
 * `Allow`/`Deny` on `iot:Connect`, `iot:Subscribe`, `iot:Receive`, `iot:Publish` (or `iot:*`), and
 * resources `arn:aws:iot:{region}:{account}:client/{id}`, `topic/{topic}`, `topicfilter/{filter}`. In a
 * resource `*` matches any characters and `?` one; MQTT's `+` and `#` are literal characters (a
 * subscription to `org/#` needs a resource matching `topicfilter/org/#`). An explicit Deny wins; what no
 * statement allows is denied.
 */
export type IotAction = 'iot:Connect' | 'iot:Subscribe' | 'iot:Receive' | 'iot:Publish';

interface Statement {
  effect: 'Allow' | 'Deny';
  actions: RegExp[];
  resources: RegExp[];
}

export interface IotPolicy {
  allows(action: IotAction, resource: string): boolean;
}

/** An IoT policy pattern (`*`, `?`) as a whole-string regular expression. */
const pattern = (value: string) =>
  new RegExp(
    `^${value
      .replace(/[.+^${}()|[\]\\#/]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

const list = (value: unknown): string[] | undefined =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value) && value.every((v) => typeof v === 'string')
      ? (value as string[])
      : undefined;

/** The policy of an authorizer's answer, or the reason IoT Core would refuse the connection. */
export function parseAuthorizerPolicy(documents: unknown): IotPolicy | { refused: string } {
  const { maxDocuments, maxDocumentChars } = AUTHORIZER_POLICY_LIMITS;
  if (!Array.isArray(documents) || documents.length === 0) return { refused: 'no policy documents' };
  if (documents.length > maxDocuments) return { refused: `more than ${maxDocuments} policy documents` };
  const statements: Statement[] = [];
  for (const document of documents) {
    if (typeof document !== 'string') return { refused: 'a policy document is not a string' };
    if (document.length > maxDocumentChars)
      return { refused: `a policy document is longer than ${maxDocumentChars} characters` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(document);
    } catch {
      return { refused: 'a policy document is not JSON' };
    }
    const raw = (parsed as { Statement?: unknown }).Statement;
    for (const statement of Array.isArray(raw) ? raw : [raw]) {
      const { Effect, Action, Resource } = (statement ?? {}) as Record<string, unknown>;
      const actions = list(Action);
      const resources = list(Resource);
      if ((Effect !== 'Allow' && Effect !== 'Deny') || !actions || !resources)
        return { refused: 'a policy statement is malformed' };
      statements.push({ effect: Effect, actions: actions.map(pattern), resources: resources.map(pattern) });
    }
  }
  const matching = (action: string, resource: string) =>
    statements.filter(
      (s) => s.actions.some((a) => a.test(action)) && s.resources.some((r) => r.test(resource)),
    );
  return {
    allows(action, resource) {
      const found = matching(action, resource);
      return found.some((s) => s.effect === 'Allow') && !found.some((s) => s.effect === 'Deny');
    },
  };
}

/** The ARN the broker checks a request against (region and account are the local stack's). */
export const localIotArn = (kind: 'client' | 'topic' | 'topicfilter', resource: string) =>
  `arn:aws:iot:${process.env.AWS_REGION ?? 'us-east-1'}:${process.env.AWS_ACCOUNT_ID ?? '000000000000'}:${kind}/${resource}`;

/** IoT Core's largest message (payload): 128 KB. */
export const IOT_MAX_MESSAGE_BYTES = 128 * 1024;

/** What IoT Core keeps of an authorizer's answer it accepts: the policy and the connection's timers. */
export interface AuthorizerGrant {
  policy: IotPolicy;
  refreshAfterInSeconds: number;
  disconnectAfterInSeconds: number;
}

/**
 * An authorizer's answer as IoT Core reads it (AWS IoT developer guide, "Defining your Lambda function",
 * https://docs.aws.amazon.com/iot/latest/developerguide/custom-auth-lambda.html): authenticated, a
 * `principalId` of 1 to 128 letters and digits, `refreshAfterInSeconds` and `disconnectAfterInSeconds`
 * whole numbers from 300 to 86,400, and policy documents within their limits (`parseAuthorizerPolicy`);
 * anything else fails the connection.
 */
export function readAuthorizerAnswer(answer: unknown): AuthorizerGrant | { refused: string } {
  const { principalId, minSeconds, maxSeconds } = AUTHORIZER_ANSWER_LIMITS;
  const fields = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  if (fields.isAuthenticated !== true) return { refused: 'not authenticated' };
  if (typeof fields.principalId !== 'string' || !principalId.test(fields.principalId))
    return { refused: 'principalId is not 1 to 128 letters and digits' };
  const seconds = (name: 'refreshAfterInSeconds' | 'disconnectAfterInSeconds') => {
    const value = fields[name];
    return Number.isInteger(value) && (value as number) >= minSeconds && (value as number) <= maxSeconds
      ? (value as number)
      : undefined;
  };
  const refreshAfterInSeconds = seconds('refreshAfterInSeconds');
  const disconnectAfterInSeconds = seconds('disconnectAfterInSeconds');
  if (refreshAfterInSeconds === undefined || disconnectAfterInSeconds === undefined)
    return { refused: `an interval is not a whole number of seconds from ${minSeconds} to ${maxSeconds}` };
  const policy = parseAuthorizerPolicy(fields.policyDocuments);
  if ('refused' in policy) return policy;
  return { policy, refreshAfterInSeconds, disconnectAfterInSeconds };
}

/**
 * Invokes the custom authorizer as IoT Core does: as a Lambda with at most 5 s to answer ("Creating and
 * managing custom authorizers", https://docs.aws.amazon.com/iot/latest/developerguide/config-custom-auth.html:
 * "The custom authorizer's Lambda function timeout limit is 5 seconds"); a late answer or a failed
 * invocation fails the connection, as a refusal does.
 */
export async function askAuthorizer<E>(
  authorizer: (event: E, context: Context) => Promise<unknown>,
  event: E,
): Promise<AuthorizerGrant | { refused: string }> {
  let answer: unknown;
  try {
    answer = await invoke(authorizer, event, {
      name: 'realtime-authorizer',
      timeoutMs: AUTHORIZER_ANSWER_LIMITS.timeoutSeconds * 1000,
      memoryMB: 256,
    });
  } catch (error) {
    return { refused: `the authorizer failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return readAuthorizerAnswer(answer);
}

/**
 * IoT Core's message broker and protocol quotas (AWS General Reference, "AWS IoT Core endpoints and
 * quotas", https://docs.aws.amazon.com/general/latest/gr/iot-core.html#message-broker-limits): a topic
 * of at most 256 bytes (UTF-8) and 7 forward slashes, in a publish and in a subscription (Basic Ingest's
 * `$aws/rules/{rule}/` not counted); a client id of at most 128 bytes, never starting with `$` (reserved
 * for the ids AWS IoT makes); at most 8 subscriptions in one SUBSCRIBE and 50 on a connection (more
 * "may be rejected by AWS IoT and the connection will be closed"). QoS 2 is not supported ("AWS IoT
 * doesn't support publishing or subscribing with QoS level 2", developer guide, "MQTT"). At most 100
 * publish requests a second on a connection, "inbound and outbound"; "publish requests that exceed
 * that quota are discarded" (not adjustable): counted here in both directions together, over any
 * second (`publishRateWindow`). At most 512 KiB a second through a connection: "Data that exceeds
 * the maximum throughput is delayed in processing" (`throughputPacer`; sent and received counted
 * together, as the quota's "received or sent" reads).
 */
export const IOT_BROKER_LIMITS = {
  topicBytes: 256,
  topicSlashes: 7,
  clientIdBytes: 128,
  subscriptionsPerSubscribe: 8,
  subscriptionsPerConnection: 50,
  maxQos: 1,
  publishesPerSecondPerConnection: 100,
  bytesPerSecondPerConnection: 512 * 1024,
} as const;

/**
 * A connection's data as IoT Core's "throughput per connection" quota paces it: `delay(bytes, now)`
 * answers how long (ms) the message of `bytes` sent at `now` waits before it is processed. A second's
 * worth goes at once; past it each message waits until what came before it has gone through at
 * `bytesPerSecond`, so messages keep their order and none is dropped.
 */
export function throughputPacer(bytesPerSecond: number = IOT_BROKER_LIMITS.bytesPerSecondPerConnection) {
  // When everything taken so far has gone through at the quota's rate.
  let clearAt = 0;
  return {
    delay(bytes: number, now: number): number {
      clearAt = Math.max(clearAt, now) + (bytes / bytesPerSecond) * 1000;
      return Math.max(0, clearAt - now - 1000);
    },
  };
}

/**
 * A connection's publish requests over the last second, as IoT Core's "publish requests per second
 * per connection" quota counts them: `take(now)` answers whether one more fits (and counts it), or
 * false when `limit` were already taken within the second before `now` (that one is discarded and
 * not counted). A ring of the last `limit` times taken.
 */
export function publishRateWindow(limit: number = IOT_BROKER_LIMITS.publishesPerSecondPerConnection) {
  const times: number[] = [];
  let oldest = 0;
  return {
    take(now: number): boolean {
      if (times.length < limit) {
        times.push(now);
        return true;
      }
      if (now - (times[oldest] ?? 0) < 1000) return false;
      times[oldest] = now;
      oldest = (oldest + 1) % limit;
      return true;
    },
  };
}

/**
 * IoT Core's MQTT keep-alive (AWS General Reference, "AWS IoT Core endpoints and quotas", message
 * broker quota "Connection inactivity (keep-alive interval)",
 * https://docs.aws.amazon.com/general/latest/gr/iot-core.html#message-broker-limits): a client may ask
 * for 30 to 1,200 seconds in its CONNECT. IoT Core takes less than 30 as 30 and 0 (no keep-alive, in
 * MQTT) or more than 1,200 as 1,200, its largest and its default ("the connection will be handled with
 * the supported value closest to the request value"); the timer starts with the CONNACK, a packet from
 * the client restarts it, and a client silent for 1.5 times the keep-alive is disconnected.
 */
export const IOT_KEEP_ALIVE_SECONDS = { min: 30, max: 1200 } as const;

/** The keep-alive IoT Core applies to a connection whose CONNECT asks for `requested` seconds. */
export function iotKeepAliveSeconds(requested: number): number {
  const { min, max } = IOT_KEEP_ALIVE_SECONDS;
  if (requested === 0 || requested > max) return max;
  return Math.max(requested, min);
}

const BASIC_INGEST_PREFIX = /^\$aws\/rules\/[^/]+\//;

/**
 * Why IoT Core refuses a topic name to publish to or a topic filter to subscribe to, or undefined. A
 * topic name has no wildcards, and nothing subscribes to Basic Ingest topics (developer guide,
 * "Reducing messaging costs with Basic Ingest").
 */
export function iotTopicRefusal(topic: string, use: 'publish' | 'subscribe'): string | undefined {
  const { topicBytes, topicSlashes } = IOT_BROKER_LIMITS;
  if (use === 'subscribe' && topic.startsWith('$aws/rules/'))
    return 'Basic Ingest topics have no subscribers';
  if (use === 'publish' && /[+#]/.test(topic)) return 'a topic name has no wildcards';
  const counted = use === 'publish' ? topic.replace(BASIC_INGEST_PREFIX, '') : topic;
  if (Buffer.byteLength(counted) > topicBytes) return `a topic is at most ${topicBytes} bytes`;
  if (counted.split('/').length - 1 > topicSlashes) return `a topic has at most ${topicSlashes} slashes`;
  return undefined;
}

/** Why IoT Core refuses a client id, or undefined. */
export function iotClientIdRefusal(clientId: string): string | undefined {
  const { clientIdBytes } = IOT_BROKER_LIMITS;
  if (Buffer.byteLength(clientId) > clientIdBytes) return `a client id is at most ${clientIdBytes} bytes`;
  if (clientId.startsWith('$')) return 'client ids starting with $ are reserved';
  return undefined;
}
