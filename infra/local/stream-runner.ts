import {
  type AttributeValue,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  type DynamoDBStreamsClientConfig,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  type _Record,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type {
  AttributeValue as LambdaAttributeValue,
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { type FilterPattern, matchesFilter } from './event-filter';
import { invoke } from './lambda-invoke';
import type { FunctionName } from '../src/function-access';

/** One Lambda fed by the stream, with its event source mapping's settings. */
export interface StreamConsumer {
  name: FunctionName;
  filter: FilterPattern;
  batchSize: number;
  retryAttempts: number;
  timeoutSeconds: number;
  handler: (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse>;
}

export interface StreamRunnerOptions {
  client: DynamoDBStreamsClientConfig;
  tableName: string;
  consumers: StreamConsumer[];
  /** Pause between polls of the stream when it has nothing new. */
  pollIntervalMs?: number;
}

export interface StreamRunner {
  /**
   * Resolves once every record written before the call has been handed to the consumers (and their
   * retries are over). While the runner is paused it waits for `resume()`.
   */
  drained(): Promise<void>;
  /**
   * Stops handing records on (they wait in the stream) until `resume()`, as a disabled mapping does.
   * Resolves once the records being handed on have been handled: nothing written after is delivered.
   */
  pause(): Promise<void>;
  resume(): void;
  stop(): Promise<void>;
}

interface ShardState {
  shardId: string;
  parentId?: string;
  iterator?: string;
  /** The last record handed on, to continue after it when an iterator expires. */
  lastSequence?: string;
  closed: boolean;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream attribute value as Lambda delivers it (JSON: binary values in base64). */
function toLambdaValue(value: AttributeValue): LambdaAttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaMap(value.M) };
  return value as LambdaAttributeValue;
}

const toLambdaMap = (map: Record<string, AttributeValue>): Record<string, LambdaAttributeValue> =>
  Object.fromEntries(Object.entries(map).map(([name, value]) => [name, toLambdaValue(value)]));

const toLambdaImage = (image: Record<string, AttributeValue> | undefined) =>
  image ? toLambdaMap(image) : undefined;

function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  const keys = toLambdaImage(data.Keys);
  const newImage = toLambdaImage(data.NewImage);
  const oldImage = toLambdaImage(data.OldImage);
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: data.ApproximateCreationDateTime
        ? Math.floor(data.ApproximateCreationDateTime.getTime() / 1000)
        : undefined,
      ...(keys ? { Keys: keys } : {}),
      ...(newImage ? { NewImage: newImage } : {}),
      ...(oldImage ? { OldImage: oldImage } : {}),
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType,
    },
  };
}

/**
 * Plays a DynamoDB stream event source mapping against DynamoDB Local: polls the table's stream
 * (every shard, new shards as they appear, a child only after its parent), keeps the records each
 * consumer's filter lets through, and invokes the consumer with batches of them. A record the handler
 * reports failed is delivered again with the records after it, as Lambda does, up to `retryAttempts`
 * times; then it is dropped (the on-failure destination in AWS) and the shard moves on.
 */
export async function startStreamRunner(options: StreamRunnerOptions): Promise<StreamRunner> {
  const client = new DynamoDBStreamsClient(options.client);
  const { Streams } = await client.send(new ListStreamsCommand({ TableName: options.tableName }));
  // The newest stream, should the table's stream have been turned off and on again.
  const streamArn = [...(Streams ?? [])]
    .sort((a, b) => (a.StreamLabel ?? '').localeCompare(b.StreamLabel ?? ''))
    .at(-1)?.StreamArn;
  if (!streamArn) {
    client.destroy();
    throw new Error(`The table ${options.tableName} has no stream`);
  }
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const shards = new Map<string, ShardState>();
  let stopped = false;
  let paused = false;
  let wake: (() => void) | undefined;
  let polling: Promise<void> | undefined;
  /** Callers of drained() waiting for a poll that starts after their call to complete. */
  let waitingForNextPoll: (() => void)[] = [];

  async function listShards(): Promise<Shard[]> {
    const found: Shard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      found.push(...(StreamDescription?.Shards ?? []));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return found;
  }

  async function iteratorFor(shard: ShardState): Promise<string | undefined> {
    const { ShardIterator } = await client.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shard.shardId,
        ...(shard.lastSequence
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: shard.lastSequence }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  /** Hands records to one consumer in batches, retrying from a failed record as Lambda does. */
  async function deliver(consumer: StreamConsumer, records: DynamoDBRecord[]) {
    const matching = records.filter((r) => matchesFilter(consumer.filter, r));
    let queue = matching;
    let attempt = 0;
    while (queue.length > 0 && !stopped) {
      const batch = queue.slice(0, consumer.batchSize);
      let failedAt = -1;
      try {
        // As Lambda does, an invocation ends at the function's timeout: the whole batch is retried.
        const result = await invoke(
          consumer.handler,
          { Records: batch },
          { name: consumer.name, timeoutMs: consumer.timeoutSeconds * 1000 },
        );
        const failures = result.batchItemFailures.map((f) => f.itemIdentifier);
        if (failures.length > 0) {
          const indexes = failures.map((id) => batch.findIndex((r) => r.dynamodb?.SequenceNumber === id));
          // An identifier that names no record of the batch fails the whole batch.
          failedAt = indexes.includes(-1) ? 0 : Math.min(...indexes);
        }
      } catch (error) {
        console.error(`${consumer.name}: invocation failed`, error);
        failedAt = 0;
      }
      if (failedAt < 0) {
        queue = queue.slice(batch.length);
        attempt = 0;
      } else if (attempt < consumer.retryAttempts) {
        attempt += 1;
        queue = queue.slice(failedAt);
        await delay(Math.min(100 * attempt, 1000));
      } else {
        console.error(
          `${consumer.name}: stream record ${batch[failedAt]?.dynamodb?.SequenceNumber} failed ` +
            `${consumer.retryAttempts + 1} times and was dropped (the on-failure destination in AWS)`,
        );
        queue = queue.slice(failedAt + 1);
        attempt = 0;
      }
    }
  }

  async function readShard(shard: ShardState) {
    shard.iterator ??= await iteratorFor(shard);
    while (shard.iterator && !stopped && !paused) {
      let page;
      try {
        page = await client.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 1000 }));
      } catch (error) {
        if (error instanceof ExpiredIteratorException) {
          shard.iterator = await iteratorFor(shard);
          continue;
        }
        if (error instanceof TrimmedDataAccessException) {
          shard.lastSequence = undefined;
          shard.iterator = await iteratorFor(shard);
          continue;
        }
        shard.iterator = undefined; // taken again, after the last record handed on
        throw error;
      }
      const records = (page.Records ?? []).map((r) => toLambdaRecord(r, streamArn ?? ''));
      for (const consumer of options.consumers) await deliver(consumer, records);
      if (stopped) return;
      shard.lastSequence = records.at(-1)?.dynamodb?.SequenceNumber ?? shard.lastSequence;
      shard.iterator = page.NextShardIterator;
      if (!shard.iterator) shard.closed = true;
      if (records.length === 0) return;
    }
  }

  async function poll() {
    for (const shard of await listShards()) {
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      shards.set(shard.ShardId, { shardId: shard.ShardId, parentId: shard.ParentShardId, closed: false });
    }
    for (const shard of shards.values()) {
      if (shard.closed || stopped || paused) continue;
      const parent = shard.parentId ? shards.get(shard.parentId) : undefined;
      // A key's records continue in the child shard: read it only once the parent is finished.
      if (parent && !parent.closed) continue;
      await readShard(shard);
    }
  }

  const loop = (async () => {
    while (!stopped) {
      if (!paused) {
        const waiting = waitingForNextPoll;
        waitingForNextPoll = [];
        try {
          polling = poll();
          await polling;
          if (paused) waitingForNextPoll.push(...waiting);
          else for (const resolve of waiting) resolve();
        } catch (error) {
          waitingForNextPoll.push(...waiting);
          if (!stopped) console.error('stream runner: polling the stream failed', error);
        } finally {
          polling = undefined;
        }
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pollIntervalMs);
      });
      wake = undefined;
    }
  })();

  return {
    drained: () =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waitingForNextPoll.push(resolve);
          }),
    async pause() {
      paused = true;
      await polling?.catch(() => undefined);
    },
    resume() {
      paused = false;
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      client.destroy();
      for (const resolve of waitingForNextPoll) resolve();
      waitingForNextPoll = [];
    },
  };
}
