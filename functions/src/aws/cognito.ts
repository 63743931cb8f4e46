import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { lazy } from './lazy';

export const cognito = lazy(() => new CognitoIdentityProviderClient({}));
