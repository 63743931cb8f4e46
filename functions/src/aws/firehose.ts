import { FirehoseClient } from '@aws-sdk/client-firehose';
import { lazy } from './lazy';

export const firehose = lazy(() => new FirehoseClient({}));
