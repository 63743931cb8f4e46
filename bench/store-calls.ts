import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../functions/src/aws/dynamo';
import { config } from '../functions/src/config';
import { keys } from '../functions/src/stores/keys';
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
  reset(): void;
  /** e.g. `GetCommand 1, QueryCommand 2` */
  describe(per?: number): string;
}

let installed: StoreCalls | undefined;

export function storeCalls(): StoreCalls {
  if (installed) return installed;
  let inFlight = 0;
  const calls: StoreCalls = {
    total: 0,
    byCommand: new Map(),
    maxInFlight: 0,
    reset() {
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
      try {
        return await next(args);
      } finally {
        inFlight--;
      }
    },
    // The deserialize step runs once per attempt, after the retry logic.
    { step: 'deserialize', name: 'benchStoreCalls' },
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
