import { SQSClient } from '@aws-sdk/client-sqs';
import { lazy } from './lazy';

export const sqs = lazy(() => new SQSClient({}));
