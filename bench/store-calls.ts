import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as dynamodb from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../functions/src/aws/dynamo';
import { config } from '../functions/src/config';
import { mapLimited } from '../functions/src/lib/concurrency';
import { asFunction } from '../infra/local/function-grants';
import type { FunctionName } from '../infra/src/function-access';
import { keys } from '../functions/src/stores/keys';
import { type LeanResponse, send as sendHttp } from './http-client';
import { throughput } from './types';

/**
 * The DynamoDB requests made through the handlers' client since the last reset: the local stack runs
 * the handlers in this process, so a middleware on that one client sees every store round trip (each
 * attempt, retries included) without touching the code measured.
 */
export interface StoreCalls {
  total: number;
  byCommand: Map<string, number>;
  /** The most requests in flight at once. */
  maxInFlight: number;
  /**
   * While true, each request is kept in `captured` (as sent over HTTP, see replayThroughput) and in
   * `commands` (as the client's command, see sdkReplayThroughput).
   */
  capture: boolean;
  captured: CapturedRequest[];
  commands: CapturedCommand[];
  reset(): void;
  /** e.g. `GetCommand 1, QueryCommand 2` */
  describe(per?: number): string;
}

/** A DynamoDB request as the SDK sent it over HTTP. */
export interface CapturedRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** A DynamoDB request as the client's own command: its name and its (marshalled) input. */
export interface CapturedCommand {
  name: string;
  input: unknown;
}

let installed: StoreCalls | undefined;

export function storeCalls(): StoreCalls {
  if (installed) return installed;
  let inFlight = 0;
  const calls: StoreCalls = {
    total: 0,
    byCommand: new Map(),
    maxInFlight: 0,
    capture: false,
    captured: [],
    commands: [],
    reset() {
      calls.captured = [];
      calls.commands = [];
      calls.total = 0;
      calls.byCommand.clear();
      calls.maxInFlight = inFlight;
    },
    describe(per = 1) {
      return [...calls.byCommand]
        .map(([command, count]) => `${command} ${Number((count / per).toFixed(2))}`)
        .join(', ');
    },
  };
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      calls.total++;
      const command = context.commandName ?? 'unknown';
      calls.byCommand.set(command, (calls.byCommand.get(command) ?? 0) + 1);
      calls.maxInFlight = Math.max(calls.maxInFlight, ++inFlight);
      if (calls.capture) calls.captured.push(args.request as CapturedRequest);
      try {
        return await next(args);
      } finally {
        inFlight--;
      }
    },
    // The deserialize step runs once per attempt, after the retry logic.
    { step: 'deserialize', name: 'benchStoreCalls' },
  );
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      // After serializing, the input is the document client's marshalled one: the low-level command's.
      if (calls.capture) calls.commands.push({ name: context.commandName ?? 'unknown', input: args.input });
      return next(args);
    },
    { step: 'build', name: 'benchStoreCommands' },
  );
  installed = calls;
  return calls;
}

/**
 * DynamoDB Local's own GetItem throughput (requests/s) at `concurrency` requests in flight, through
 * the handlers' client: the floor of every API read.
 */
export async function getItemThroughput(concurrency: number): Promise<number> {
  const get = () =>
    dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.org('org-demo'), ConsistentRead: true }),
    );
  await throughput(concurrency, concurrency * 4, get); // warm up
  return throughput(concurrency, Math.max(1000, concurrency * 40), get);
}

/**
 * DynamoDB Local's own rate for exactly the requests captured from `calls` API calls, sent again as
 * they went over HTTP, `concurrency` at a time: answers calls/s. Shows how much of a read's time is
 * DynamoDB Local's, whatever the requests are (a GetItem floor does not weigh what a query returns).
 */
export async function replayThroughput(
  requests: readonly CapturedRequest[],
  calls: number,
  concurrency: number,
) {
  const send = async (request: CapturedRequest) => {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        ([name]) => !['host', 'content-length'].includes(name.toLowerCase()),
      ),
    );
    const port = request.port ? `:${request.port}` : '';
    // Sent as the SDK sends them (node:http, keep-alive), the answer read to its end.
    const response = await sendHttp(
      request.method,
      `${request.protocol}//${request.hostname}${port}${request.path}`,
      headers,
      typeof request.body === 'string' || request.body instanceof Uint8Array ? request.body : undefined,
    );
    if (response.status !== 200) throw new Error(`replayed DynamoDB request answered ${response.status}`);
  };
  const started = performance.now();
  await mapLimited(requests, concurrency, send);
  return calls / ((performance.now() - started) / 1000);
}

type CommandClass = new (input: unknown) => Parameters<ReturnType<typeof dynamo>['send']>[0];

/** Captured commands made ready to send again: each with its client's command class. */
function commandsOf(commands: readonly CapturedCommand[]) {
  const classes = dynamodb as unknown as Record<string, CommandClass | undefined>;
  return commands.map(({ name, input }) => {
    const Command = classes[name];
    if (!Command) throw new Error(`no DynamoDB command ${name}`);
    return { Command, input };
  });
}

/**
 * DynamoDB Local's own rate for exactly the commands captured from `calls` API calls, sent again
 * through the handlers' client (its signing, HTTP client and deserialization, as the GetItem floor
 * is measured), `concurrency` at a time: answers calls/s. The floor of a call whose requests are not
 * GetItems: what the store and the SDK take to answer that call's own requests, and nothing else.
 */
export async function sdkReplayThroughput(
  commands: readonly CapturedCommand[],
  calls: number,
  concurrency: number,
) {
  const prepared = commandsOf(commands);
  const started = performance.now();
  await mapLimited(prepared, concurrency, ({ Command, input }) => dynamo().send(new Command(input)));
  return calls / ((performance.now() - started) / 1000);
}

/**
 * The least any API answering a call could cost here: a bare node:http server in this process that,
 * for each request, sends exactly `commands` (one call's store requests, in order) through the
 * handlers' client, as `functionName` (so the local stack weighs them against its role, as it does
 * the API's), and answers `answer`'s status and bytes. The request, its answer, the load generator,
 * the sockets and the store requests are the API's; what the API spends beyond this server is its
 * own: the local API Gateway's checks and event, the invocation, the handler and its middleware.
 */
export async function bareServer(
  functionName: FunctionName,
  commands: readonly CapturedCommand[],
  answer: Pick<LeanResponse, 'status' | 'body' | 'encoding'>,
): Promise<{ url: string; close(): void }> {
  const prepared = commandsOf(commands);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    ...(answer.encoding ? { 'content-encoding': answer.encoding } : {}),
  };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      asFunction(functionName, async () => {
        for (const { Command, input } of prepared) await dynamo().send(new Command(input));
      }).then(
        () => {
          response.writeHead(answer.status, headers);
          response.end(answer.body);
        },
        (error: unknown) => {
          console.error('bare server:', error);
          response.writeHead(500).end();
        },
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
