import {
  InitiateAuthCommand,
  NotAuthorizedException,
  RevokeTokenCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { cognito } from '../aws/clients';
import { config } from '../config';

export interface SignedIn {
  subject: string;
  accessToken: string;
  refreshToken: string;
}

export interface Refreshed {
  subject: string;
  accessToken: string;
}

/** Errors that mean "these credentials do not sign anybody in", whatever Cognito calls them. */
function isRejectedCredential(error: unknown): boolean {
  return (
    error instanceof NotAuthorizedException ||
    error instanceof UserNotFoundException ||
    // cognito-local answers a wrong password with InvalidPasswordException.
    (error instanceof Error && error.name === 'InvalidPasswordException')
  );
}

function subjectOf(accessToken: string): string {
  const { sub } = decodeJwt(accessToken);
  if (!sub) throw new Error('Access token without subject');
  return sub;
}

/** The identity store (Cognito user pool): sign-in, refresh and revocation. */
export const identity = {
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
      return { subject: subjectOf(result.AccessToken), accessToken: result.AccessToken };
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
};
