/**
 * cognito-local (pinned) with the one call the platform uses that it lacks: AdminUserGlobalSignOut,
 * which revokes every refresh token of a user, as Cognito does. Run as its own process by cognito.ts.
 */
import type { AdminUserGlobalSignOutRequest } from '@aws-sdk/client-cognito-identity-provider';
import { UserNotFoundError } from 'cognito-local/lib/errors';
import type { Context } from 'cognito-local/lib/services/context';
import type { Clock, CognitoService } from 'cognito-local/lib/services';
import { Targets } from 'cognito-local/lib/targets/targets';

const AdminUserGlobalSignOut =
  ({ cognito, clock }: { cognito: CognitoService; clock: Clock }) =>
  async (ctx: Context, req: AdminUserGlobalSignOutRequest): Promise<Record<string, never>> => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId ?? '');
    const user = await userPool.getUserByUsername(ctx, req.Username ?? '');
    if (!user) throw new UserNotFoundError();
    await userPool.saveUser(ctx, { ...user, RefreshTokens: [], UserLastModifiedDate: clock.get() });
    return {};
  };

// The router looks targets up by name in this object on every request.
Object.assign(Targets, { AdminUserGlobalSignOut });

await import('cognito-local/lib/bin/start.js');
