import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lazy } from './lazy';

export const dynamo = lazy(() => {
  const client = new DynamoDBClient({
    // Binary attributes come base64 in DynamoDB's JSON. The SDK's decoder first matches each value
    // against a validating regular expression, which took 7 of the 8 µs a 3 KB tree summary cost to
    // decode (a sidebar of 200 organizations spent ~5 ms in it). DynamoDB's own answers need no such
    // check: Buffer decodes them directly.
    base64Decoder: (input) => Buffer.from(input, 'base64'),
  });
  // The SDK's logger middleware copies every command's input and output through its schema's
  // sensitive-data filter even when nothing logs (its no-op logger has an `info`): for a BatchGetItem
  // of 100 tree summaries that is a walk of every item. This client is never given a logger.
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
});
