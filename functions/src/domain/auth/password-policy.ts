import { type Identity, PasswordRejected, type PasswordPolicy } from './ports';
import { validationError } from '../errors';
import { PASSWORD_HINT } from './texts';

// Cognito's symbol set for password policies.
const SYMBOLS = new Set(Array.from('^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-'));

export function meetsPolicy(password: string, policy: PasswordPolicy): boolean {
  const chars = Array.from(password);
  return (
    chars.length >= policy.minLength &&
    (!policy.requireLowercase || /[a-z]/.test(password)) &&
    (!policy.requireUppercase || /[A-Z]/.test(password)) &&
    (!policy.requireDigits || /[0-9]/.test(password)) &&
    (!policy.requireSymbols || chars.some((c) => SYMBOLS.has(c) || c === ' ')) &&
    // Cognito refuses leading or trailing spaces.
    password.trim() === password
  );
}

/** Refuses a password the user pool's policy would refuse, before anything is created or claimed. */
export async function assertAcceptablePassword(
  deps: { identity: Pick<Identity, 'passwordPolicy'> },
  password: string,
): Promise<void> {
  const policy = await deps.identity.passwordPolicy();
  if (policy && !meetsPolicy(password, policy)) throw validationError(PASSWORD_HINT);
}

/** Runs an identity-store call, answering the pool's own refusal of the password with the hint. */
export async function withPasswordPolicy<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PasswordRejected) throw validationError(PASSWORD_HINT);
    throw error;
  }
}
