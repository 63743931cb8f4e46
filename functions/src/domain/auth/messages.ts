/** Texts of the accounts calls: the documented ones (specification sections 5 and 8) and our own. */
export const INVITE_LINK_EXPIRED = 'Please request Admin the link has expired';
export const RESET_LINK_EXPIRED =
  'This password reset link has expired or was already used. Please request a new one.';
export const USER_ALREADY_EXISTS = 'User already exist in the organization.';
export const SOMETHING_WENT_WRONG = 'Something went wrong.';
export const PASSWORD_HINT =
  'Must be 8+ characters long and contain at least 1 upper case letter, 1 number, 1 special character';
export const PASSWORD_EMPTY = 'Password can not empty';
export const PASSWORDS_DONT_MATCH = "Passwords Don't Match";
export const USERNAME_EMPTY = 'User name can not be empty';
export const EMAIL_REQUIRED = 'Please Enter email.';
export const EMAIL_INVALID = 'Please Enter valid email.';
export const INVITE_EMAIL_REQUIRED = 'Please enter an email address';
export const OLD_PASSWORD_WRONG = 'The old password is incorrect.';
export const EMAIL_NOT_INVITED = 'The e-mail does not match the invitation.';
export const EXISTING_ACCOUNT_PASSWORD_WRONG =
  'This e-mail already has an account: enter its current password to accept the invitation.';

export const INVITE_SENT = 'Invitation sent.';
export const RESET_MAIL_SENT = 'Please check your email. Forget password Link has been sent.';
export const PASSWORD_CHANGED = 'Password Changed successfully.';
export const PASSWORD_RESET_DONE = 'Password changed successfully.';
export const USERNAME_CHANGED = 'Username Changed successfully.';
export const REGISTERED = 'Registration complete. Please sign in.';
