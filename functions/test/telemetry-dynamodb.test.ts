import { dynamoTelemetryStore } from '../src/stores/telemetry-dynamodb';
import { telemetryStoreContract } from './support/telemetry-store-contract';

// The DynamoDB adapter on DynamoDB Local.
telemetryStoreContract('DynamoDB', () => dynamoTelemetryStore);
