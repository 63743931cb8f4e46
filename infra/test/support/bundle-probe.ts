import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '@argentum/functions/aws/dynamo';
import { config } from '@argentum/functions/config';
import { s3FileStore } from '@argentum/functions/stores/files';

/**
 * What a bundled Lambda does with its AWS clients, run from a bundle built as the Lambdas are
 * (lambdaBuild): DynamoDB at cold start, S3 (loaded on first use) for every call the platform makes.
 * Prints what it saw as one JSON line (infra/test/local/lambda-bundle.test.ts).
 */
const id = randomUUID();
const item = { pk: `PROBE#${id}`, sk: 'PROBE', value: 42 };
await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: item }));
const got = await dynamo().send(
  new GetCommand({ TableName: config.platformTable, Key: { pk: item.pk, sk: item.sk } }),
);
await dynamo().send(
  new DeleteCommand({ TableName: config.platformTable, Key: { pk: item.pk, sk: item.sk } }),
);

const key = `floorplans/probe/${id}.svg`;
const body = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
await s3FileStore.write(key, body, 'image/svg+xml', { version: 'v1' }, { cacheControl: 'no-store' });
const described = await s3FileStore.describe(key);
const read = await s3FileStore.read(key, { maxBytes: 1024 });
const url = await s3FileStore.readUrl(key, { contentType: 'image/svg+xml', expiresInSeconds: 60 });
const fetched = await (await fetch(url)).text();
const form = await s3FileStore.uploadForm(`${key}.staged`, {
  contentType: 'image/svg+xml',
  minBytes: 1,
  maxBytes: 1024,
  expiresInSeconds: 60,
});
await s3FileStore.delete(key);
const gone = await s3FileStore.describe(key);

console.log(
  JSON.stringify({
    dynamo: got.Item?.value,
    described: { size: described?.size, contentType: described?.contentType, metadata: described?.metadata },
    read: new TextDecoder().decode(read),
    fetched,
    formFields: Object.keys(form.fields).sort(),
    gone: gone === undefined,
  }),
);
