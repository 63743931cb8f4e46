import {
  BatchGetItemCommand,
  type KeysAndAttributes,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  paginateQuery,
  paginateScan,
  type QueryCommandInput,
  type QueryCommandOutput,
  type ScanCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo } from '../aws/dynamo';
import { type BackOff, pauseBefore, sleep } from '../lib/backoff';
import { mapLimited } from '../lib/concurrency';

/**
 * The one way the stores page, batch and transact on DynamoDB. Paging is the SDK's own paginators
 * (`paginateQuery`, `paginateScan`); batches retry what DynamoDB leaves unprocessed with bounded
 * exponential back-off and full jitter (as AWS advises for BatchGetItem / BatchWriteItem), and fail
 * with a clear error after the last attempt; transactions answer which conditions refused them.
 */

export type Item = Record<string, unknown>;
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** DynamoDB's limits: keys per BatchGetItem, requests per BatchWriteItem, actions per transaction. */
export const BATCH_GET_LIMIT = 100;
export const BATCH_WRITE_LIMIT = 25;
export const TRANSACTION_LIMIT = 100;
/** BatchGetItem requests one read sends side by side. */
const BATCH_GETS_AT_ONCE = 10;

/** Every page of a query, as the SDK's paginator reads them (stop early by leaving the loop). */
export function queryPages(input: QueryCommandInput): AsyncIterable<QueryCommandOutput> {
  return paginateQuery({ client: dynamo() }, { ...input });
}

/** Every item a query finds, all pages read. */
export async function queryAll(input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages(input)) items.push(...(page.Items ?? []));
  return items;
}

/** Every item a scan finds, page by page (a page's items are handled before the next is read). */
export async function* scanItems(input: ScanCommandInput): AsyncGenerator<Item[]> {
  for await (const page of paginateScan({ client: dynamo() }, { ...input })) yield page.Items ?? [];
}

/** Retries of what DynamoDB left unprocessed, or throttled. */
export const defaultBackOff: BackOff = { attempts: 8, baseMs: 50, capMs: 1000, sleep, random: Math.random };

/**
 * DynamoDB's answers that a request went over the table's throughput (provisioned capacity, a
 * partition's limit, the account's request rate). The SDK retries them (DynamoDB's client: 4 attempts, back-off from 1 s);
 * one that still comes back is a reason to fail what the request carried, so that it comes again later.
 */
const THROUGHPUT_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);

/** Whether a request failed for lack of throughput (throttled), not because of what it carried. */
export function isThroughputError(error: unknown): boolean {
  return (
    error instanceof UnprocessedItemsError || (error instanceof Error && THROUGHPUT_ERRORS.has(error.name))
  );
}

/**
 * Thrown when DynamoDB still left part of a batch unprocessed after the last attempt, or throttled the
 * whole request (`cause`) after the SDK's retries: `unprocessed` is what was not written or read.
 */
export class UnprocessedItemsError extends Error {
  readonly left: number;
  constructor(
    readonly operation: 'BatchGetItem' | 'BatchWriteItem',
    readonly table: string,
    readonly unprocessed: readonly unknown[],
    readonly attempts: number,
    cause?: unknown,
  ) {
    super(
      `${operation} on ${table} left ${unprocessed.length} items unprocessed after ${attempts} attempts` +
        (cause instanceof Error ? ` (${cause.name})` : ''),
      { cause },
    );
    this.name = 'UnprocessedItemsError';
    this.left = unprocessed.length;
  }
}

/**
 * Sends `pending` until nothing is left: each attempt answers what is still unprocessed. Retries wait
 * a random time up to base x 2^(retry-1), capped ("full jitter"). Answers nothing, or throws
 * `onGiveUp(left)` after `attempts` requests, or at once when a request is throttled as a whole (the
 * SDK has retried it already): what is left is then named, never guessed.
 */
export async function untilProcessed<T>(
  pending: readonly T[],
  attempt: (pending: readonly T[]) => Promise<readonly T[]>,
  onGiveUp: (left: readonly T[], attempts: number, cause?: unknown) => Error,
  backOff: BackOff = defaultBackOff,
): Promise<void> {
  let left = pending;
  for (let sent = 0; left.length > 0; sent++) {
    if (sent === backOff.attempts) throw onGiveUp(left, sent);
    if (sent > 0) await pauseBefore(sent, backOff);
    try {
      left = await attempt(left);
    } catch (error) {
      if (isThroughputError(error)) throw onGiveUp(left, sent + 1, error);
      throw error;
    }
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The items of `keys` in `table` (any order; missing ones are left out), 100 keys a request, up to
 * 10 requests at once.
 * Duplicate keys must be removed by the caller (DynamoDB refuses them).
 */
export async function batchGet(
  table: string,
  keys: readonly Item[],
  options: { consistent?: boolean } = {},
  backOff: BackOff = defaultBackOff,
): Promise<Item[]> {
  const found: Item[] = [];
  const consistent = options.consistent ?? false;
  // The low-level command, its keys marshalled and its items unmarshalled here: the document client's
  // generic walk of the request and of the answer cost the sidebar's read of 2 organizations ~30 µs
  // of CPU more (bench/api.bench.ts).
  const read = (chunk: readonly Item[]) =>
    untilProcessed<NonNullable<KeysAndAttributes['Keys']>[number]>(
      chunk.map((key) => marshall(key)),
      async (pending) => {
        const page = await dynamo().send(
          new BatchGetItemCommand({
            RequestItems: { [table]: { Keys: [...pending], ConsistentRead: consistent } },
          }),
        );
        for (const item of page.Responses?.[table] ?? []) found.push(unmarshall(item));
        return page.UnprocessedKeys?.[table]?.Keys ?? [];
      },
      (left, attempts, cause) =>
        new UnprocessedItemsError(
          'BatchGetItem',
          table,
          left.map((key) => unmarshall(key)),
          attempts,
          cause,
        ),
      backOff,
    );
  // Requests of a large read side by side: a listing of 2,000 devices is 20 requests, 10 in flight.
  await mapLimited(chunks(keys, BATCH_GET_LIMIT), BATCH_GETS_AT_ONCE, read);
  return found;
}

/** Puts (and deletes) in `table`, 25 a request, each request's unprocessed ones retried. */
export async function batchWrite(
  table: string,
  requests: readonly WriteRequest[],
  backOff: BackOff = defaultBackOff,
): Promise<void> {
  for (const chunk of chunks(requests, BATCH_WRITE_LIMIT)) {
    await untilProcessed(
      chunk,
      async (pending) => {
        const { UnprocessedItems } = await dynamo().send(
          new BatchWriteCommand({ RequestItems: { [table]: [...pending] } }),
        );
        return UnprocessedItems?.[table] ?? [];
      },
      (left, attempts, cause) => new UnprocessedItemsError('BatchWriteItem', table, left, attempts, cause),
      backOff,
    );
  }
}

/** How a transaction ended: written, or refused with the indexes of the conditions that failed. */
export type TransactOutcome =
  | { outcome: 'written' }
  | { outcome: 'refused'; failed: number[]; conflict: boolean; error: TransactionCanceledException };

/**
 * One transaction, all or nothing (at most 100 actions). A cancellation for failed conditions or a
 * concurrent transaction is answered (`failed`: the indexes of the actions whose condition failed);
 * anything else is thrown.
 */
export async function transactWrite(items: readonly TransactItem[]): Promise<TransactOutcome> {
  if (items.length === 0) return { outcome: 'written' };
  if (items.length > TRANSACTION_LIMIT)
    throw new Error(`A transaction takes at most ${TRANSACTION_LIMIT} actions, not ${items.length}`);
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: [...items] }));
    return { outcome: 'written' };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const failed = reasons.flatMap((reason, index) =>
      reason.Code === 'ConditionalCheckFailed' ? [index] : [],
    );
    const conflict = reasons.some((reason) => reason.Code === 'TransactionConflict');
    if (failed.length === 0 && !conflict) throw error;
    return { outcome: 'refused', failed, conflict, error };
  }
}
