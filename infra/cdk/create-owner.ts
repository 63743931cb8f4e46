/**
 * Creates the first platform owner after a deploy: a Cognito user with a permanent password, its user
 * record in the platform table, and a first organization in which the owner has role 3 (roles belong
 * to memberships, so an owner is an owner of organizations). Everyone else is invited from the app.
 *
 *   USER_POOL_ID=... PLATFORM_TABLE=... AWS_REGION=... OWNER_PASSWORD='...' \
 *     npx tsx infra/cdk/create-owner.ts --email owner@example.com --name "Platform owner" --org "Acme"
 *
 * USER_POOL_ID and PLATFORM_TABLE are outputs of the stateful stack. The password is read from the
 * environment so it does not land in the shell history; it must satisfy the pool's password policy.
 */
import { parseArgs } from 'node:util';
import { Role } from '@argentum/contracts';
import { randomUUID } from 'node:crypto';
import { identity } from '@argentum/functions/adapters/identity';
import { systemClock } from '@argentum/functions/domain/ports';
import { createPlatformUser } from '@argentum/functions/domain/users/create-user';
import { normalizeEmail } from '@argentum/functions/domain/users/user';
import { dynamoTreeStore } from '@argentum/functions/stores/tree';
import { dynamoUserStore } from '@argentum/functions/stores/users';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see docs/deploy.md)`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, name: { type: 'string' }, org: { type: 'string' } },
  });
  if (!values.email || !values.org)
    throw new Error(
      'Usage: create-owner.ts --email <address> --org <first organization> [--name <user name>]',
    );
  const email = normalizeEmail(values.email);
  required('USER_POOL_ID'); // read by the identity adapter
  required('PLATFORM_TABLE'); // read by the user store
  const password = required('OWNER_PASSWORD');
  const existing = await dynamoUserStore.findByEmail(email);
  const user = await createPlatformUser(
    { users: dynamoUserStore, identity, clock: systemClock },
    {
      email,
      password,
      userName: values.name ?? email.split('@')[0] ?? email,
      orgRoles: existing?.orgRoles ?? {},
    },
  );
  if (Object.keys(user.orgRoles).length === 0) {
    const org = { orgId: randomUUID(), orgName: values.org, version: 0 };
    await dynamoTreeStore.createOrganization(
      org,
      { userId: user.userId, role: Role.owner },
      new Date().toISOString(),
    );
  }
  console.log(`Owner ${email} (${user.userId}) is ready; sign in at the SiteUrl output.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
