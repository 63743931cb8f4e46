import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../../src/aws/dynamo';

/**
 * What a provisioned table answers when it runs out of capacity, injected around the real DynamoDB
 * Local calls of the handlers' client (DynamoDB Local does not meter throughput):
 * - `throttled`: the whole request is refused with ProvisionedThroughputExceededException. With
 *   `underSdkRetries` the SDK's own retry loop sees the refusal (and retries it, as in AWS); without,
 *   the caller gets it as the SDK's last answer (its retries spent).
 * - `unprocessed`: a BatchWriteItem writes the other items and answers the matching ones as
 *   UnprocessedItems (not written), as DynamoDB does when part of a batch is throttled.
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
  // The caller's side of the SDK's retries: input and output as the document client has them.
  stack.add(
    (next, context) => async (args) => {
      const input = args.input as { RequestItems?: WriteRequests };
      const fault = take(context.commandName, JSON.stringify(input), false);
      if (!fault) return next(args);
      if (fault.kind === 'throttled') throw throttled();
      // Unprocessed: the matching put requests are left out of the call and answered back.
      const sent: WriteRequests = {};
      const left: WriteRequests = {};
      for (const [table, requests] of Object.entries(input.RequestItems ?? {})) {
        for (const request of requests) {
          const bucket = JSON.stringify(request).includes(fault.mentioning) ? left : sent;
          (bucket[table] ??= []).push(request);
        }
      }
      type Result = Awaited<ReturnType<typeof next>>;
      const result: Result = Object.keys(sent).length
        ? await next({ ...args, input: { ...input, RequestItems: sent } })
        : ({ output: { $metadata: {} }, response: {} } as unknown as Result);
      const output = result.output as unknown as { UnprocessedItems?: WriteRequests };
      const unprocessed = { ...output.UnprocessedItems };
      for (const [table, requests] of Object.entries(left))
        unprocessed[table] = [...(unprocessed[table] ?? []), ...requests];
      return {
        ...result,
        output: { ...output, UnprocessedItems: unprocessed } as unknown as Result['output'],
      };
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
