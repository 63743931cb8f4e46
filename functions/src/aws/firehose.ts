import type { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';

/**
 * The Firehose client and its command, loaded on first use: only ingest sends to Firehose, once a
 * batch, and its cold load should not pay for the client (docs/architecture.md, Lambda runtime and bundling).
 */
let loaded: Promise<{ client: FirehoseClient; PutRecordBatch: typeof PutRecordBatchCommand }> | undefined;
export const firehose = () =>
  (loaded ??= import('@aws-sdk/client-firehose').then((sdk) => ({
    client: new sdk.FirehoseClient({}),
    PutRecordBatch: sdk.PutRecordBatchCommand,
  })));
