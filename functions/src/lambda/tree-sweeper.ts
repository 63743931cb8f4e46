import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { finishDelete } from '../domain/tree/sweep';
import { nodeFromStreamImage } from '../stores/tree';
import { logger } from './wiring/core';
import { sweepPorts } from './wiring/sweep';

/**
 * The sweeper: the platform table's stream hands it every organization, building and floor written
 * with `deletedAt` (a committed delete; the event filter in infra/src/definitions.ts), and it removes
 * what lies under each. It runs off the request path, so a delete answers as soon as it is committed.
 *
 * A record it cannot finish (out of time, or a failure) is reported, and the stream delivers it again
 * (with the records after it): the sweep is idempotent and resumable, so the next delivery finishes the
 * job, and a record delivered after its sweep finished changes nothing.
 */

/** Time kept in reserve: the sweep stops this long before the timeout and leaves the rest for the retry. */
export const STOP_BEFORE_TIMEOUT_MS = 20_000;

const ports = sweepPorts();

export async function handler(
  event: DynamoDBStreamEvent,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<DynamoDBBatchResponse> {
  const shouldStop = () => context.getRemainingTimeInMillis() < STOP_BEFORE_TIMEOUT_MS;
  for (const record of event.Records) {
    if (!(await swept(record, shouldStop))) {
      // Lambda retries from this record on; the ones after it come again with it.
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}

async function swept(record: DynamoDBRecord, shouldStop: () => boolean): Promise<boolean> {
  const image = record.dynamodb?.NewImage;
  const node = image ? nodeFromStreamImage(image) : undefined;
  // Not a committed delete of a tree node: nothing to sweep (the event filter lets none through).
  if (!node?.deletedAt) return true;
  try {
    const done = await finishDelete(ports, node, { shouldStop });
    if (!done) {
      logger.log('info', 'tree sweep left for the next delivery', {
        node: { kind: node.kind, id: node.id, orgId: node.orgId },
      });
    }
    return done;
  } catch (error) {
    logger.log('error', 'tree sweep failed; the record is delivered again', {
      node: { kind: node.kind, id: node.id, orgId: node.orgId },
      error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
    });
    return false;
  }
}
