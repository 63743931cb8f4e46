import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every local service binds to loopback only, but DynamoDB Local (it has no option for its address). */
export const HOST = '127.0.0.1';

export interface LocalPorts {
  app: number;
  dynamodb: number;
  s3: number;
  cognito: number;
  mqtt: number;
  mqttWs: number;
  iotData: number;
  ses: number;
  sqs: number;
}

function port(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) {
    throw new Error(`${name} must be a port number, got '${value}'`);
  }
  return parsed;
}

/** Ports of the local stack, each overridable by an environment variable. */
export function portsFromEnv(): LocalPorts {
  return {
    app: port('PORT', 3000),
    dynamodb: port('DYNAMODB_PORT', 8000),
    s3: port('S3_PORT', 4569),
    cognito: port('COGNITO_PORT', 9229),
    mqtt: port('MQTT_PORT', 1883),
    mqttWs: port('MQTT_WS_PORT', 8083),
    iotData: port('IOT_DATA_PORT', 8090),
    ses: port('SES_PORT', 8091),
    sqs: port('SQS_PORT', 8092),
  };
}

/** Local state (tables, files, users, captured mail) lives here; `npm run reset` removes it. */
export const defaultDataDir = () => path.resolve(process.env.LOCAL_DATA_DIR ?? path.join(repoRoot, '.local'));
