import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  type AttributeType,
  DescribeUserPoolCommand,
  InitiateAuthCommand,
  NotAuthorizedException,
  RevokeTokenCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { cognito } from '../aws/cognito';
import { config } from '../config';
import {
  type Identity,
  PasswordRejected,
  type PasswordPolicy,
  type Refreshed,
  type SignedIn,
} from '../domain/auth/ports';

/** Errors that mean "these credentials do not sign anybody in", whatever Cognito calls them. */
function isRejectedCredential(error: unknown): boolean {
  return (
    error instanceof NotAuthorizedException ||
    error instanceof UserNotFoundException ||
    // cognito-local answers a wrong password with InvalidPasswordException.
    (error instanceof Error && error.name === 'InvalidPasswordException')
  );
}

const isNamed = (error: unknown, name: string) => error instanceof Error && error.name === name;

const subOf = (attributes: AttributeType[] | undefined) => attributes?.find((a) => a.Name === 'sub')?.Value;

let cachedPolicy: { poolId: string; policy: PasswordPolicy } | undefined;

function subjectOf(accessToken: string): string {
  const { sub } = decodeJwt(accessToken);
  if (!sub) throw new Error('Access token without subject');
  return sub;
}

/** The identity store (Cognito user pool): sign-in, refresh and revocation. */
export const identity: Identity = {
  async signIn(email: string, password: string): Promise<SignedIn | undefined> {
    try {
      const { AuthenticationResult: result } = await cognito().send(
        new InitiateAuthCommand({
          ClientId: config.userPoolClientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      );
      if (!result?.AccessToken || !result.RefreshToken) return undefined;
      return {
        subject: subjectOf(result.AccessToken),
        accessToken: result.AccessToken,
        refreshToken: result.RefreshToken,
      };
    } catch (error) {
      if (isRejectedCredential(error)) return undefined;
      throw error;
    }
  },

  async refresh(refreshToken: string): Promise<Refreshed | undefined> {
    try {
      const { AuthenticationResult: result } = await cognito().send(
        new InitiateAuthCommand({
          ClientId: config.userPoolClientId,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: refreshToken },
        }),
      );
      if (!result?.AccessToken) return undefined;
      const { sub, auth_time: authTime } = decodeJwt(result.AccessToken);
      if (!sub) throw new Error('Access token without subject');
      return {
        subject: sub,
        accessToken: result.AccessToken,
        authTime: typeof authTime === 'number' ? authTime : undefined,
      };
    } catch (error) {
      if (isRejectedCredential(error)) return undefined;
      throw error;
    }
  },

  /** Revokes a refresh token and the access tokens issued from it. Unknown tokens are ignored. */
  async revoke(refreshToken: string): Promise<void> {
    try {
      await cognito().send(
        new RevokeTokenCommand({ ClientId: config.userPoolClientId, Token: refreshToken }),
      );
    } catch (error) {
      if (!isRejectedCredential(error)) throw error;
    }
  },

  /** Revokes every refresh token of the user (Cognito global sign-out). Unknown users are ignored. */
  async signOutEverywhere(email: string): Promise<void> {
    try {
      await cognito().send(
        new AdminUserGlobalSignOutCommand({ UserPoolId: config.userPoolId, Username: email }),
      );
    } catch (error) {
      if (!(error instanceof UserNotFoundException || isNamed(error, 'UserNotFoundException'))) throw error;
    }
  },

  /** Whether the password signs this user in; the session it opens is revoked at once. */
  async verifyPassword(email: string, password: string): Promise<boolean> {
    const signedIn = await identity.signIn(email, password);
    if (!signedIn) return false;
    await identity.revoke(signedIn.refreshToken);
    return true;
  },

  /** The subject (`sub`) of the identity with this e-mail, if there is one. */
  async subjectOfEmail(email: string): Promise<string | undefined> {
    try {
      const user = await cognito().send(
        new AdminGetUserCommand({ UserPoolId: config.userPoolId, Username: email }),
      );
      return subOf(user.UserAttributes);
    } catch (error) {
      if (error instanceof UserNotFoundException || isNamed(error, 'UserNotFoundException')) return undefined;
      throw error;
    }
  },

  /**
   * Creates a confirmed identity with a permanent password, without Cognito's own welcome mail.
   * Answers its subject, or undefined when an identity with this e-mail already exists.
   */
  async createUser(email: string, password: string): Promise<string | undefined> {
    let subject: string | undefined;
    try {
      const created = await cognito().send(
        new AdminCreateUserCommand({
          UserPoolId: config.userPoolId,
          Username: email,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
      subject = subOf(created.User?.Attributes);
    } catch (error) {
      if (isNamed(error, 'UsernameExistsException')) return undefined;
      throw error;
    }
    try {
      await identity.setPassword(email, password);
      subject ??= await identity.subjectOfEmail(email);
      if (!subject) throw new Error('The identity store returned no subject for a new user');
      return subject;
    } catch (error) {
      // No half-created identity without a usable password.
      await identity.deleteUser(email);
      throw error;
    }
  },

  /** Sets a permanent password; throws PasswordRejected when the pool's policy refuses it. */
  async setPassword(email: string, password: string): Promise<void> {
    try {
      await cognito().send(
        new AdminSetUserPasswordCommand({
          UserPoolId: config.userPoolId,
          Username: email,
          Password: password,
          Permanent: true,
        }),
      );
    } catch (error) {
      if (isNamed(error, 'InvalidPasswordException')) throw new PasswordRejected();
      throw error;
    }
  },

  /** Deletes an identity; an unknown one is ignored. */
  async deleteUser(email: string): Promise<void> {
    try {
      await cognito().send(new AdminDeleteUserCommand({ UserPoolId: config.userPoolId, Username: email }));
    } catch (error) {
      if (!(error instanceof UserNotFoundException || isNamed(error, 'UserNotFoundException'))) throw error;
    }
  },

  /**
   * The pool's password policy, read once per warm Lambda (undefined when the function may not read it). Cognito enforces it on every admin call
   * as well; reading it lets the platform refuse a weak password before creating anything, and keeps
   * the rule where it is defined (the pool), also on stand-ins that do not enforce it.
   */
  async passwordPolicy(): Promise<PasswordPolicy | undefined> {
    const poolId = config.userPoolId;
    if (cachedPolicy?.poolId === poolId) return cachedPolicy.policy;
    let UserPool;
    try {
      ({ UserPool } = await cognito().send(new DescribeUserPoolCommand({ UserPoolId: poolId })));
    } catch (error) {
      // Without cognito-idp:DescribeUserPool the pool still enforces its policy on setPassword.
      if (isNamed(error, 'AccessDeniedException')) return undefined;
      throw error;
    }
    const rules = UserPool?.Policies?.PasswordPolicy;
    const policy: PasswordPolicy = {
      minLength: rules?.MinimumLength ?? 8,
      requireLowercase: rules?.RequireLowercase ?? true,
      requireUppercase: rules?.RequireUppercase ?? true,
      requireDigits: rules?.RequireNumbers ?? true,
      requireSymbols: rules?.RequireSymbols ?? true,
    };
    cachedPolicy = { poolId, policy };
    return policy;
  },
};
