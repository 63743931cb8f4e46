import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { S3Client } from '@aws-sdk/client-s3';
import { SESClient } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

/** One lazily created client per service, reused across invocations of a warm Lambda. */
function lazy<T>(create: () => T): () => T {
  let instance: T | undefined;
  return () => (instance ??= create());
}

export const dynamo = lazy(() =>
  DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  }),
);

export const s3 = lazy(
  () =>
    new S3Client({
      forcePathStyle: config.s3ForcePathStyle,
      // The local emulator stores streamed uploads corrupted when checksums are always computed.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
);

export const cognito = lazy(() => new CognitoIdentityProviderClient({}));
export const ses = lazy(() => new SESClient({}));
export const iotData = lazy(() => new IoTDataPlaneClient({}));
