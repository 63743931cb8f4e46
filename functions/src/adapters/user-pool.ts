import { AdminDeleteUserCommand, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import { cognito } from '../aws/cognito';
import { config } from '../config';

/** Administration of identities in the user pool (Cognito), as opposed to signing in. */
export const userPool = {
  /** Deletes an identity by its user name (the e-mail); an identity already gone is not an error. */
  async deleteIdentity(email: string): Promise<void> {
    try {
      await cognito().send(new AdminDeleteUserCommand({ UserPoolId: config.userPoolId, Username: email }));
    } catch (error) {
      if (!(error instanceof UserNotFoundException)) throw error;
    }
  },
};
