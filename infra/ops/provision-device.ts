import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { IoTClient } from '@aws-sdk/client-iot';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ENV } from '@argentum/functions/environment';
import { DomainError } from '@argentum/functions/domain/errors';
import type { RegisterDeviceRequest } from '@argentum/functions/domain/devices/register';
import { deviceTopics, issueThingIdentity } from '@argentum/functions/domain/devices/provisioning';
import { iotThingRegistry } from '@argentum/functions/adapters/iot-things';
import { deviceProvisioningParameters } from '../src/definitions';
import { defaultDataDir } from '../local/config';
import { localDeviceCredential, readDeviceAccess } from '../local/device-credentials';

const usage = `Usage: npm run provision-device -- --org <orgID> --dev <devID> --type <devType> --name <name>
         [--floor <floorID>] [--gateway <devID>] [--out <dir>] [--rotate] [--local [--data-dir <dir>]] [--prefix <stackPrefix>]

Registers the device in its organization and gives it its identity:
  AWS (default): the IoT thing (attribute orgID), an active certificate with the device policy,
                 written with its private key and the endpoint to <out> (0600). Run it again: nothing
                 new is made; --rotate issues a new certificate and retires the old one.
  --local:       the running local stack (npm start; --data-dir or LOCAL_DATA_DIR, default .local):
                 a local credential for the broker instead of a certificate.
  --gateway:     the gateway (type 0, same organization) the device reports through; the floor's
                 Sensor-Node(link) view draws the link. Given again with another gateway, moves it.`;

interface Args {
  orgId: string;
  devId: string;
  devType: number;
  devName: string;
  floorId?: string;
  gatewayId?: string;
  out: string;
  rotate: boolean;
  local: boolean;
  dataDir: string;
  prefix: string;
}

function readArgs(argv: string[]): Args {
  const { values } = parseArgs({
    args: argv,
    options: {
      org: { type: 'string' },
      dev: { type: 'string' },
      type: { type: 'string' },
      name: { type: 'string' },
      floor: { type: 'string' },
      gateway: { type: 'string' },
      out: { type: 'string' },
      rotate: { type: 'boolean', default: false },
      local: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      prefix: { type: 'string', default: 'Argentum' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const { org, dev, type, name } = values;
  if (!org || !dev || type === undefined || !name)
    throw new UsageError('--org, --dev, --type and --name are required.');
  // Pointed at the local stack: --local, a data folder, or the local stack's DynamoDB endpoint.
  const local =
    values.local ||
    values['data-dir'] !== undefined ||
    /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '');
  return {
    orgId: org,
    devId: dev,
    devType: Number(type),
    devName: name,
    ...(values.floor ? { floorId: values.floor } : {}),
    ...(values.gateway ? { gatewayId: values.gateway } : {}),
    out: path.resolve(values.out ?? path.join('devices', dev.replace(/:/g, '-'))),
    rotate: values.rotate,
    local,
    dataDir: values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir(),
    prefix: values.prefix,
  };
}

class UsageError extends Error {}

/** Writes a file only its owner may read (certificates, keys, credentials). */
function writeSecret(dir: string, name: string, content: string) {
  const file = path.join(dir, name);
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/**
 * The platform's own device registration (domain/devices/register.ts) over the DynamoDB stores, imported
 * once the environment names the table (config.ts reads it when used).
 */
async function register(request: RegisterDeviceRequest) {
  const [{ registerDevice }, { dynamoDevices }, { dynamoTreeStore }, { systemClock }] = await Promise.all([
    import('@argentum/functions/domain/devices/register'),
    import('@argentum/functions/stores/devices'),
    import('@argentum/functions/stores/tree'),
    import('@argentum/functions/domain/ports'),
  ]);
  return registerDevice({ devices: dynamoDevices, tree: dynamoTreeStore, clock: systemClock }, request);
}

const requestOf = (args: Args): RegisterDeviceRequest => ({
  orgId: args.orgId,
  devId: args.devId,
  devType: args.devType,
  devName: args.devName,
  ...(args.floorId !== undefined ? { floorId: args.floorId } : {}),
  ...(args.gatewayId !== undefined ? { gatewayId: args.gatewayId } : {}),
});

/** The registration's outcome, as the operator reads it. */
function registeredLine(args: Args, registered: Awaited<ReturnType<typeof register>>, where = '') {
  const gateway = registered.device.gatewayID
    ? `; reports through gateway ${registered.device.gatewayID}`
    : '';
  return `Device ${args.devId}: ${registered.outcome} in organization ${args.orgId}${where}${gateway}.`;
}

async function provisionLocal(args: Args) {
  const access = readDeviceAccess(args.dataDir);
  if (!access)
    throw new UsageError(`No local stack in ${args.dataDir} (device-access.json): start it with npm start.`);
  Object.assign(process.env, {
    [ENV.platformTable]: access.platformTable,
    AWS_ENDPOINT_URL_DYNAMODB: access.dynamodbEndpoint,
    AWS_REGION: access.region,
    AWS_ACCESS_KEY_ID: access.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: access.credentials.secretAccessKey,
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  const registered = await register(requestOf(args));
  const identity = { orgId: args.orgId, devId: args.devId };
  const topics = deviceTopics(args.orgId, args.devId);
  mkdirSync(args.out, { recursive: true });
  // The credential follows from the stack's secret: a second run writes the same one.
  const file = writeSecret(
    args.out,
    'device.json',
    JSON.stringify(
      {
        url: access.mqttUrl,
        clientId: args.devId,
        username: args.devId,
        password: localDeviceCredential(access.deviceSecret, identity),
        topics,
      },
      null,
      2,
    ),
  );
  console.log(registeredLine(args, registered, ' (local stack)'));
  if (args.rotate) console.log('Local credentials follow the stack secret; npm run reset issues new ones.');
  console.log(`Broker:      ${access.mqttUrl} (client id and user name ${args.devId}; password in ${file})`);
  printTopics(topics);
}

async function parameter(ssm: SSMClient, name: string) {
  const { Parameter } = await ssm.send(new GetParameterCommand({ Name: name }));
  if (!Parameter?.Value) throw new UsageError(`SSM parameter ${name} is missing: is the platform deployed?`);
  return Parameter.Value;
}

async function provisionAws(args: Args) {
  const names = deviceProvisioningParameters(args.prefix);
  const ssm = new SSMClient({});
  const [policyName, telemetryRuleName, platformTable] = await Promise.all([
    parameter(ssm, names.policyName),
    parameter(ssm, names.telemetryRuleName),
    parameter(ssm, names.platformTableName),
  ]);
  ssm.destroy();
  process.env[ENV.platformTable] = platformTable;
  // The registration validates the organization and the ids before anything is made in IoT.
  const registered = await register(requestOf(args));
  const iot = new IoTClient({});
  const identity = await issueThingIdentity(
    { things: iotThingRegistry(iot) },
    { orgId: args.orgId, devId: args.devId, policyName, rotate: args.rotate },
  );
  iot.destroy();
  const topics = deviceTopics(args.orgId, args.devId, telemetryRuleName);
  mkdirSync(args.out, { recursive: true });
  writeSecret(args.out, 'endpoint.txt', `${identity.endpoint}\n`);
  console.log(registeredLine(args, registered));
  console.log(
    `Thing:       ${args.devId} ${identity.thingCreated ? 'created' : 'exists'} (attribute orgID=${args.orgId})`,
  );
  if (identity.certificate) {
    writeSecret(args.out, 'certificate.pem.crt', identity.certificate.certificatePem);
    writeSecret(args.out, 'private.pem.key', identity.certificate.privateKey);
    console.log(
      `Certificate: ${identity.certificate.certificateId} (policy ${policyName}), key and certificate in ${args.out}`,
    );
    for (const arn of identity.retired) console.log(`Retired:     ${arn} (detached, inactive)`);
  } else {
    console.log('Certificate: the thing keeps the one it has (--rotate issues a new one).');
  }
  console.log(`Endpoint:    ${identity.endpoint}:8883 (client id ${args.devId})`);
  printTopics(topics);
}

function printTopics(topics: ReturnType<typeof deviceTopics>) {
  console.log(`Telemetry:   ${topics.telemetry}`);
  if (topics.telemetry !== topics.telemetryMqtt)
    console.log(`             (or ${topics.telemetryMqtt}, with the messaging charge)`);
  console.log(`Commands:    ${topics.commands} (subscribe)`);
  console.log(`Confirm:     ${topics.confirmations.join(', ')}`);
}

async function main() {
  try {
    const args = readArgs(process.argv.slice(2));
    await (args.local ? provisionLocal(args) : provisionAws(args));
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof DomainError ||
      (error instanceof TypeError && 'code' in error)
    ) {
      console.error(error.message);
      if (error instanceof UsageError) console.error(`\n${usage}`);
      process.exit(2);
    }
    throw error;
  }
}

await main();
