import { FirehoseClient } from '@aws-sdk/client-firehose';
import { lazy } from './lazy';

/**
 * Firehose as the platform uses it (the client and its command), in one module that callers import on
 * first use (`await import('../aws/firehose')`): only ingest sends to Firehose, once a batch, and its
 * cold load should not pay for the client (docs/architecture.md, Lambda runtime and bundling).
 */
export { PutRecordBatchCommand } from '@aws-sdk/client-firehose';
export const firehose = lazy(() => new FirehoseClient({}));
