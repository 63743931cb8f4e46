import {
  EMAIL_INVALID_TEXT,
  EMAIL_REQUIRED_TEXT,
  FORGOT_PASSWORD_SENT_TEXT,
  INVITE_EMAIL_EMPTY_TEXT,
  INVITE_EXPIRED_TEXT,
  INVITE_USER_EXISTS_TEXT,
  PASSWORD_CHANGED_TEXT,
  PASSWORD_EMPTY_TEXT,
  PASSWORD_HINT_TEXT,
  PASSWORD_RESET_TEXT,
  PASSWORDS_DONT_MATCH_TEXT,
  SETTINGS_SOMETHING_WRONG_TEXT,
  USERNAME_CHANGED_TEXT,
  USERNAME_EMPTY_TEXT,
} from '@argentum/contracts';

/** Texts of the accounts calls: the documented ones (from the contracts) and our own. */
export const INVITE_LINK_EXPIRED = INVITE_EXPIRED_TEXT;
export const RESET_LINK_EXPIRED =
  'This password reset link has expired or was already used. Please request a new one.';
export const USER_ALREADY_EXISTS = INVITE_USER_EXISTS_TEXT;
export const SOMETHING_WENT_WRONG = SETTINGS_SOMETHING_WRONG_TEXT;
export const PASSWORD_HINT = PASSWORD_HINT_TEXT;
export const PASSWORD_EMPTY = PASSWORD_EMPTY_TEXT;
export const PASSWORDS_DONT_MATCH = PASSWORDS_DONT_MATCH_TEXT;
export const USERNAME_EMPTY = USERNAME_EMPTY_TEXT;
export const EMAIL_REQUIRED = EMAIL_REQUIRED_TEXT;
export const EMAIL_INVALID = EMAIL_INVALID_TEXT;
export const INVITE_EMAIL_REQUIRED = INVITE_EMAIL_EMPTY_TEXT;
export const OLD_PASSWORD_WRONG = 'The old password is incorrect.';
export const EMAIL_NOT_INVITED = 'The e-mail does not match the invitation.';
export const EXISTING_ACCOUNT_PASSWORD_WRONG =
  'This e-mail already has an account: enter its current password to accept the invitation.';

export const INVITE_SENT = 'Invitation sent.';
export const RESET_MAIL_SENT = FORGOT_PASSWORD_SENT_TEXT;
export const PASSWORD_CHANGED = PASSWORD_CHANGED_TEXT;
export const PASSWORD_RESET_DONE = PASSWORD_RESET_TEXT;
export const USERNAME_CHANGED = USERNAME_CHANGED_TEXT;
export const REGISTERED = 'Registration complete. Please sign in.';
