import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { localTelemetryRuleName, telemetryTable } from '../src/definitions';
import { defaultDataDir } from '../local/config';
import { readDeviceAccess } from '../local/device-credentials';
import { runSmoke, SmokeFailure, type SmokeTarget } from './smoke';
import { deploymentOutputs, type StackOutputs, UsageError } from './smoke-outputs';

const usage = `Usage: SMOKE_EMAIL=<e-mail> SMOKE_PASSWORD=<password> SMOKE_ORG=<orgID> \\
         npm run smoke -- (--outputs <cdk-outputs.json> [--prefix Argentum] | --local [--url <app URL>] [--data-dir <dir>])

Checks a running platform end to end (docs/deploy.md, "Smoke test"): signs in the user, opens the browser
channel, provisions a test device, publishes a reading through Basic Ingest, sees it in a data query and
on the live floor topic, sends a command and receives it as the device, then removes what it made.
The user needs role Admin (2) or more in the organization.

  --outputs   the file 'npm run deploy -- --outputs-file <file>' wrote (AWS credentials of the account)
  --local     the local stack of 'npm start' (its data folder: --data-dir or LOCAL_DATA_DIR, default .local)`;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new UsageError(`${name} is required.`);
  return value;
}

function targetOf(argv: string[]): SmokeTarget {
  const { values } = parseArgs({
    args: argv,
    options: {
      outputs: { type: 'string' },
      prefix: { type: 'string', default: 'Argentum' },
      local: { type: 'boolean', default: false },
      url: { type: 'string', default: `http://localhost:${process.env.PORT ?? 3000}` },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const user = {
    email: required('SMOKE_EMAIL'),
    password: required('SMOKE_PASSWORD'),
    orgId: required('SMOKE_ORG'),
  };
  if (values.local) {
    const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir();
    const access = readDeviceAccess(dataDir);
    if (!access) throw new UsageError(`No local stack in ${dataDir}: start it with npm start.`);
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: access.dynamodbEndpoint,
      AWS_REGION: access.region,
      AWS_ACCESS_KEY_ID: access.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: access.credentials.secretAccessKey,
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    return {
      kind: 'local',
      siteUrl: values.url,
      ...user,
      platformTable: access.platformTable,
      telemetryTable: telemetryTable.localName,
      telemetryRuleName: localTelemetryRuleName,
      mqttUrl: access.mqttUrl,
      deviceSecret: access.deviceSecret,
    };
  }
  if (!values.outputs) throw new UsageError('Give --outputs <file> (a deployment) or --local.');
  const outputs = JSON.parse(readFileSync(values.outputs, 'utf8')) as StackOutputs;
  const deployment = deploymentOutputs(outputs, values.prefix);
  const region = process.env.AWS_REGION ?? /\.iot\.([a-z0-9-]+)\./.exec(deployment.iotEndpoint)?.[1];
  if (!region) throw new UsageError('Set AWS_REGION.');
  process.env.AWS_REGION = region;
  return { kind: 'aws', ...user, ...deployment, region };
}

async function main() {
  let target: SmokeTarget;
  try {
    target = targetOf(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError || (error instanceof TypeError && 'code' in error))) throw error;
    console.error(`${error.message}\n\n${usage}`);
    process.exit(2);
  }
  console.log(`Smoke test of ${target.siteUrl} (${target.kind}), organization ${target.orgId}`);
  try {
    await runSmoke(target, {
      onStep: (s) => console.log(`${s.ok ? 'ok  ' : 'FAIL'} ${s.step}: ${s.detail}`),
    });
    console.log('Smoke test passed.');
    process.exit(0);
  } catch (error) {
    console.error(error instanceof SmokeFailure ? `Smoke test failed at ${error.message}` : error);
    process.exit(1);
  }
}

await main();
