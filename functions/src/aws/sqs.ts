import { SQSClient } from '@aws-sdk/client-sqs';
import { lazy } from './lazy';

/**
 * SQS as the platform uses it (the client and its commands), in one module that callers import on first
 * use (`await import('../aws/sqs')`): most requests queue no mail and most telemetry batches set nothing
 * aside (docs/architecture.md, Lambda runtime and bundling).
 */
export { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
export const sqs = lazy(() => new SQSClient({}));
