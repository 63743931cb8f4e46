// First: on a Node too old for the platform, stop here with the versions, before anything else loads.
import './node-version.mjs';
import { existsSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { defaultDataDir, portsFromEnv } from './config';
import { roleNames, type RoleNumber } from '@argentum/contracts';
import { DEFAULT_DEMO_PASSWORD, demoUsers, organizations } from './demo-data';
import {
  LOCAL_OPERATOR_CLIENT_ID_PREFIX,
  LOCAL_OPERATOR_USERNAME,
  localOperatorCredential,
} from './device-credentials';
import { simulatorProfileOf } from './simulator';
import { startLocalStack } from './stack';

async function main() {
  const dataDir = defaultDataDir();
  const pidFile = path.join(dataDir, 'stack.pid');
  const password = process.env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD;
  console.log('Starting the Argentum platform locally…');
  const stack = await startLocalStack({
    dataDir,
    ports: portsFromEnv(),
    seed: true,
    demoPassword: password,
    historyDays: Number(process.env.DEMO_HISTORY_DAYS ?? 3),
    simulator: process.env.SIMULATOR !== 'off',
    simulatorIntervalMs: Number(process.env.SIMULATOR_INTERVAL_MS ?? 30_000),
    ...(process.env.SIMULATOR_SEED ? { simulatorSeed: Number(process.env.SIMULATOR_SEED) } : {}),
    // SIMULATOR_PROFILE: realistic (default), stormy (frequent refusals, late replies, offline
    // spells) or reliable (every command answered at once, no device away).
    simulatorBehaviour: simulatorProfileOf(process.env.SIMULATOR_PROFILE),
  });
  writeFileSync(pidFile, String(process.pid));

  const { ports } = stack;
  const width = Math.max(...demoUsers.map((u) => u.email.length));
  const orgName = new Map(organizations.map((o) => [o.orgId, o.orgName]));
  // Roles belong to memberships: "Admin in Other Org, Read-only in Demo Org".
  const rolesText = (orgRoles: Record<string, RoleNumber>) =>
    Object.entries(orgRoles)
      .map(([orgId, role]) => `${roleNames[role]} in ${orgName.get(orgId) ?? orgId}`)
      .join(', ');
  console.log(`
Argentum is running.

  Sign in at   ${stack.url}
  Password     ${password}${process.env.DEMO_PASSWORD ? ' (from DEMO_PASSWORD)' : ''}${stack.seeded ? '' : '  (demo data from an earlier start; `npm run reset` starts afresh)'}
${demoUsers.map((u) => `    ${u.email.padEnd(width)}  ${rolesText(u.orgRoles)}`).join('\n')}

  Local services (loopback only, but DynamoDB Local: every interface)
    API + web app        ${stack.url}          captured e-mail: ${stack.url}/_local/mail
    DynamoDB Local       http://127.0.0.1:${ports.dynamodb}
    S3 (s3rver, gated)   http://127.0.0.1:${ports.s3}
    Cognito (local)      http://127.0.0.1:${ports.cognito}
    MQTT                 mqtt://127.0.0.1:${ports.mqtt}  ws://127.0.0.1:${ports.mqttWs}/mqtt
      to watch any topic: user name ${LOCAL_OPERATOR_USERNAME}, password ${localOperatorCredential(stack.deviceSecret)}, client id ${LOCAL_OPERATOR_CLIENT_ID_PREFIX}<anything>
    IoT data plane shim  http://127.0.0.1:${ports.iotData}
    SES capture          http://127.0.0.1:${ports.ses}
    Vendor stand-ins     ${stack.vendorsUrl}  (Ryse, Nest, Ecobee and Secrets Manager)
  Data in ${dataDir} (reset: npm run reset)

Press Ctrl-C to stop.`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await stack.stop();
    if (existsSync(pidFile)) rmSync(pidFile);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
