import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lazy } from './lazy';

export const dynamo = lazy(() => {
  const client = new DynamoDBClient({});
  // The SDK's logger middleware copies every command's input and output through its schema's
  // sensitive-data filter even when nothing logs (its no-op logger has an `info`): for a BatchGetItem
  // of 100 tree summaries that is a walk of every item. This client is never given a logger.
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
});
