/**
 * Creates the first platform owner (role 3) after a deploy: a Cognito user with a permanent password
 * and its user record in the platform table. Everyone else is invited from the app by this user.
 *
 *   USER_POOL_ID=... PLATFORM_TABLE=... AWS_REGION=... OWNER_PASSWORD='...' \
 *     npx tsx infra/cdk/create-owner.ts --email owner@example.com --name "Platform owner"
 *
 * USER_POOL_ID and PLATFORM_TABLE are outputs of the stateful stack. The password is read from the
 * environment so it does not land in the shell history; it must satisfy the pool's password policy.
 */
import { parseArgs } from 'node:util';
import { Role } from '@argentum/events/contracts';
import { createPlatformUser } from '@argentum/functions/domain/users/create-user';
import { normalizeEmail } from '@argentum/functions/domain/users/user';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see docs/deploy.md)`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } });
  if (!values.email) throw new Error('Usage: create-owner.ts --email <address> [--name <user name>]');
  const email = normalizeEmail(values.email);
  required('USER_POOL_ID'); // read by the identity adapter
  required('PLATFORM_TABLE'); // read by the user store
  const password = required('OWNER_PASSWORD');
  const { userId } = await createPlatformUser({
    email,
    password,
    userName: values.name ?? email.split('@')[0] ?? email,
    role: Role.owner,
    orgIds: [],
  });
  console.log(`Owner ${email} (${userId}) is ready; sign in at the SiteUrl output.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
