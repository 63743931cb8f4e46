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
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { Role } from '@argentum/functions/domain/roles';
import { normalizeEmail } from '@argentum/functions/domain/users/user';
import { putUser } from '@argentum/functions/stores/users';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see docs/deploy.md)`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } });
  if (!values.email) throw new Error('Usage: create-owner.ts --email <address> [--name <user name>]');
  const email = normalizeEmail(values.email);
  const userPoolId = required('USER_POOL_ID');
  required('PLATFORM_TABLE'); // read by the user store
  const password = required('OWNER_PASSWORD');

  const cognito = new CognitoIdentityProviderClient({});
  try {
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: email,
        // No invitation e-mail: the password is set below, so there is no forced-change challenge.
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof UsernameExistsException)) throw error;
    console.log(`${email} already exists in the user pool; updating its password and record.`);
  }
  await cognito.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: userPoolId,
      Username: email,
      Password: password,
      Permanent: true,
    }),
  );
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
  const userId = user.UserAttributes?.find((attribute) => attribute.Name === 'sub')?.Value;
  if (!userId) throw new Error(`Cognito returned no sub for ${email}`);

  const now = new Date().toISOString();
  await putUser({
    userId,
    email,
    userName: values.name ?? email.split('@')[0] ?? email,
    role: Role.owner,
    orgIds: [],
    createdAt: now,
    updatedAt: now,
  });
  console.log(`Owner ${email} (${userId}) is ready; sign in at the SiteUrl output.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
