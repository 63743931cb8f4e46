export type PasswordStrength = 'weak' | 'medium' | 'strong';

/**
 * The meter's rule (specification section 5): weak by default; medium is 9+ characters with a letter
 * and a digit; strong is 8+ characters with a digit, a lowercase and an uppercase letter.
 */
export function passwordStrength(password: string): PasswordStrength {
  const digit = /[0-9]/.test(password);
  const lower = /[a-z]/.test(password);
  const upper = /[A-Z]/.test(password);
  if (password.length >= 8 && digit && lower && upper) return 'strong';
  if (password.length >= 9 && digit && (lower || upper)) return 'medium';
  return 'weak';
}
