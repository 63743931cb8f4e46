import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../../src/aws/dynamo';

/**
 * What a provisioned table answers when it runs out of capacity, injected around the real DynamoDB
 * Local calls of the handlers' client (DynamoDB Local does not meter throughput):
 * - `throttled`: the whole request is refused with ProvisionedThroughputExceededException. With
 *   `underSdkRetries` the SDK's own retry loop sees the refusal (and retries it, as in AWS); without,
 *   the caller gets it as the SDK's last answer (its retries spent).
 * - `unprocessed`: a BatchWriteItem writes the other items and answers the matching ones as
 *   UnprocessedItems (not written), a BatchGetItem reads the other keys and answers the matching ones
 *   as UnprocessedKeys (not read), as DynamoDB does when part of a batch is throttled.
 * A fault applies to requests of `command` whose input mentions `mentioning` (a device id), `times`
 * times (Infinity: until cleared).
 */
export interface ThroughputFault {
  command:
    'BatchWriteItemCommand' | 'UpdateItemCommand' | 'PutItemCommand' | 'QueryCommand' | 'BatchGetItemCommand';
  mentioning: string;
  kind: 'throttled' | 'unprocessed';
  times: number;
  underSdkRetries?: boolean;
}

export interface ThroughputFaults {
  add(fault: ThroughputFault): void;
  /** Removes every fault; the calls go through untouched again. */
  clear(): void;
  /** Requests each fault hit, by its `kind:command:mentioning`. */
  hits: Map<string, number>;
}

/** The initialize step's view of a call: the command's input in, its output out. */
interface Args {
  input: object;
}
interface Result {
  output: object;
  response: unknown;
}
type Next = (args: Args) => Promise<Result>;
const nothingSent = (): Result => ({ output: { $metadata: {} }, response: {} });

/** A BatchWriteItem of which the put requests mentioning `mentioning` are answered unprocessed. */
async function leaveWritesUnprocessed(next: Next, args: Args, mentioning: string): Promise<Result> {
  const input = args.input as { RequestItems?: WriteRequests };
  const sent: WriteRequests = {};
  const left: WriteRequests = {};
  for (const [table, requests] of Object.entries(input.RequestItems ?? {})) {
    for (const request of requests) {
      const bucket = JSON.stringify(request).includes(mentioning) ? left : sent;
      (bucket[table] ??= []).push(request);
    }
  }
  const result = Object.keys(sent).length
    ? await next({ ...args, input: { ...input, RequestItems: sent } })
    : nothingSent();
  const output = result.output as { UnprocessedItems?: WriteRequests };
  const unprocessed = { ...output.UnprocessedItems };
  for (const [table, requests] of Object.entries(left))
    unprocessed[table] = [...(unprocessed[table] ?? []), ...requests];
  return { ...result, output: { ...output, UnprocessedItems: unprocessed } };
}

type KeysByTable = Record<string, { Keys: unknown[]; ConsistentRead?: boolean }>;

/** A BatchGetItem of which the keys mentioning `mentioning` are answered unprocessed. */
async function leaveKeysUnprocessed(next: Next, args: Args, mentioning: string): Promise<Result> {
  const input = args.input as { RequestItems?: KeysByTable };
  const sent: KeysByTable = {};
  const left: KeysByTable = {};
  for (const [table, request] of Object.entries(input.RequestItems ?? {})) {
    for (const key of request.Keys) {
      const bucket = JSON.stringify(key).includes(mentioning) ? left : sent;
      (bucket[table] ??= { ...request, Keys: [] }).Keys.push(key);
    }
  }
  const result = Object.keys(sent).length
    ? await next({ ...args, input: { ...input, RequestItems: sent } })
    : nothingSent();
  const output = result.output as { UnprocessedKeys?: KeysByTable };
  const unprocessed = { ...output.UnprocessedKeys };
  for (const [table, request] of Object.entries(left))
    unprocessed[table] = { ...request, Keys: [...(unprocessed[table]?.Keys ?? []), ...request.Keys] };
  return { ...result, output: { ...output, UnprocessedKeys: unprocessed } };
}

let installed: ThroughputFaults | undefined;

const throttled = () =>
  new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded (injected)',
    $metadata: { httpStatusCode: 400 },
  });

type WriteRequests = Record<string, unknown[]>;

/** Installs the injector on the handlers' DynamoDB client, once per test file. */
export function throughputFaults(): ThroughputFaults {
  if (installed) return installed;
  const faults: (ThroughputFault & { left: number })[] = [];
  const hits = new Map<string, number>();
  const take = (command: string | undefined, text: string, underSdkRetries: boolean) => {
    const fault = faults.find(
      (f) =>
        f.left > 0 &&
        f.command === command &&
        (f.underSdkRetries ?? false) === underSdkRetries &&
        text.includes(f.mentioning),
    );
    if (!fault) return undefined;
    fault.left--;
    const key = `${fault.kind}:${fault.command}:${fault.mentioning}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    return fault;
  };
  const stack = dynamo().middlewareStack;
  // The caller's side of the SDK's retries: input and output as the command has them (the document
  // client's, or the low-level command's that batchGet sends).
  stack.add(
    (next, context) => async (args) => {
      const fault = take(context.commandName, JSON.stringify(args.input), false);
      if (!fault) return next(args);
      if (fault.kind === 'throttled') throw throttled();
      const leave =
        context.commandName === 'BatchGetItemCommand' ? leaveKeysUnprocessed : leaveWritesUnprocessed;
      // The SDK's handler, seen through the little of it these need (input in, output out).
      type Out = Awaited<ReturnType<typeof next>>;
      return (await leave(next as unknown as Next, args, fault.mentioning)) as unknown as Out;
    },
    { step: 'initialize', name: 'throughputFaultsAfterRetries' },
  );
  // Inside the SDK's retry loop (its middleware is the first of this step): each attempt it sends
  // passes here, as the serialized request.
  stack.add(
    (next, context) => async (args) => {
      const body = (args.request as { body?: unknown }).body;
      // The JSON protocol's body: bytes (or a string).
      const text = body instanceof Uint8Array ? new TextDecoder().decode(body) : String(body ?? '');
      if (take(context.commandName, text, true)) throw throttled();
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'throughputFaultsUnderRetries' },
  );
  installed = {
    add: (fault) => faults.push({ ...fault, left: fault.times }),
    clear: () => {
      faults.length = 0;
      hits.clear();
    },
    hits,
  };
  return installed;
}
