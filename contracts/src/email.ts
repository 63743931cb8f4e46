import { EMAIL_INVALID_TEXT, EMAIL_REQUIRED_TEXT } from './texts';

// Deliberately permissive: one @, no spaces, a dot in the domain. The server has the last word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sign-in, forgot-password and invite e-mails are sent lowercased and trimmed. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** The spec's generic e-mail message for the value, or null when it is acceptable. */
export function validateEmail(value: string): string | null {
  const email = normalizeEmail(value);
  if (email === '') return EMAIL_REQUIRED_TEXT;
  if (!EMAIL_PATTERN.test(email)) return EMAIL_INVALID_TEXT;
  return null;
}
