// Texts fixed by the specifications, spelling included, shared by the front end and the functions.
export const PRODUCT_NAME = 'Argentum';
export const UNEXPECTED_ERROR_TEXT = 'An unexpected error occured.';
export const OFFLINE_TEXT = 'Please Check your internet Connectivity!';
export const BACK_ONLINE_TEXT = 'Connectivity has been resume!';

/** How long the "back online" banner stays (spec section 9). */
export const BACK_ONLINE_BANNER_MS = 5000;
/**
 * Ours: the browser is online but its real-time connection is lost past its grace (the broker, or the
 * platform, not the user's network): live values, confirmations and notifications wait for it.
 */
export const LIVE_LOST_TEXT = 'Live updates are interrupted. Reconnecting…';
export const LIVE_BACK_TEXT = 'Live updates are back.';

// Accounts: registration, passwords and user name (specification sections 2, 5, 8 and 9).
export const SOMETHING_WENT_WRONG_TEXT = 'Something went wrong';
export const INVITE_EXPIRED_TEXT = 'Please request Admin the link has expired';
/** A session that ended without the user signing out (signed out elsewhere, a password change, expiry). */
export const SESSION_EXPIRED_TEXT = 'Your session has expired. Please sign in again.';
export const PASSWORD_HINT_TEXT =
  'Must be 8+ characters long and contain at least 1 upper case letter, 1 number, 1 special character';
export const PASSWORDS_DONT_MATCH_TEXT = "Passwords Don't Match";
export const PASSWORD_EMPTY_TEXT = 'Password can not empty';
export const USERNAME_EMPTY_TEXT = 'User name can not be empty';
export const FORGOT_PASSWORD_SENT_TEXT = 'Please check your email. Forget password Link has been sent.';
export const FORGOT_PASSWORD_NOT_SENT_TEXT = 'Please check your email or try again.';
export const PASSWORD_CHANGED_TEXT = 'Password Changed successfully.';
export const PASSWORD_RESET_TEXT = 'Password changed successfully.';
export const USERNAME_CHANGED_TEXT = 'Username Changed successfully.';
/**
 * Not in the specification (ours): the answer to a sign-in or reset-mail request refused because too
 * many came for the account or from the address (429, with the same wait in Retry-After).
 */
export function tooManyAttemptsText(waitSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(waitSeconds));
  const wait =
    seconds < 60
      ? `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
      : `${Math.ceil(seconds / 60)} ${Math.ceil(seconds / 60) === 1 ? 'minute' : 'minutes'}`;
  return `Too many attempts. Please try again in ${wait}.`;
}
/** The change-password modal closes this long after a success; the reset screen redirects after this. */
export const PASSWORD_MODAL_CLOSE_MS = 1500;
export const RESET_REDIRECT_MS = 2000;

// Platform Settings: user administration and organization logos (spec sections 2, 5, 8 and 9).
export const SETTINGS_SOMETHING_WRONG_TEXT = 'Something went wrong.';
export const INVITE_EMAIL_EMPTY_TEXT = 'Please enter an email address';
export const INVITE_USER_EXISTS_TEXT = 'User already exist in the organization.';
export const USER_ROLE_UPDATED_TEXT = 'User role updated.';
export const USER_DELETED_TEXT = 'User deleted successfully.';
export const CHANGE_USER_ACCESS_TITLE = 'Change User Access';
export const DELETE_USER_TITLE = 'Delete User';
export const deleteUserQuestion = (name: string) => `Are you sure you want to delete (${name})?`;
export const LOGO_SELECT_ORGANIZATION_LABEL = 'Please select organization';
export const LOGO_DROP_TEXT = "Drag 'n' drop organization Logo here, or click to select organization Logo";
export const LOGO_DRAGGING_TEXT = 'Release to drop the organization Logo here';
export const LOGO_TOO_LARGE_TEXT = 'File size too large!.';
export const LOGO_INVALID_TYPE_TEXT = 'Invalid file type';
export const LOGO_NO_ORGANIZATION_TEXT = 'Please try again by selecting organization';
export const LOGO_UPLOADED_TEXT = 'Organization Logo uploaded successfully.';

/** Users grid page size (spec section 9). */
export const USERS_PAGE_SIZE = 5;
/** How long the invite success check shows (spec section 9). */
export const INVITE_SUCCESS_MS = 5000;
/** Largest logo in bytes (spec section 9). */
export const LOGO_MAX_BYTES = 10_000_000;
/**
 * The image types a logo may be ("image types only"), checked by the browser before it sends one and by
 * the server on its bytes. SVG is not one: it can carry script, and logos are not sanitized.
 */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

// Organization tree editing (access-admin-notifications.md sections 2, 5 and 8).
export const EDIT_ORGANIZATION_TEXT = 'Edit Organization';
export const EDIT_ORGANIZATION_TOOLTIP =
  'Enables you to add new Organizations,Buildings and floors to the platform as well as update and delete those';
export const EDIT_DONE_TEXT = 'Done';
export const CREATE_ORGANIZATION_TEXT = 'Create Organization';
export const CREATE_BUILDING_TEXT = 'Create Building';
export const CREATE_FLOOR_TEXT = 'Create Floor';
export const ORGANIZATION_NAME_PLACEHOLDER = 'Organization name';
export const ADD_BUILDING_PLACEHOLDER = 'Add Building';
export const ADD_FLOOR_PLACEHOLDER = 'Add Floor';
export const BUILDING_NAME_PLACEHOLDER = 'Building name';
export const deleteNodeTitle = (name: string) => `Delete ${name}?`;
export const DELETE_NODE_TEXT =
  'Delete this Organization/Building/Floor permanently? This action cannot be undone.';
export const ORGANIZATION_CREATED_TEXT = 'Organization has been created successfuly.';
export const BUILDING_CREATED_TEXT = 'New Building has been created successfuly';
export const FLOOR_CREATED_TEXT = 'New Floor has been created successfuly';
export const ITEM_DELETED_TEXT = 'Item deleted successfully';
export const FLOOR_NAME_UPDATED_TEXT = 'Floor name updated';
export const ORGANIZATION_NAME_EMPTY_TEXT = 'Organization name can not be empty.';
export const BUILDING_NAME_EMPTY_TEXT = 'Building name can not be empty.';
export const FLOOR_NAME_EMPTY_TEXT = 'Floor name can not be empty.';
/** Renaming the open floor in its header (the floor-plan specification's text, without the stop). */
export const FLOOR_TITLE_EMPTY_TEXT = 'Floor name can not be empty';
/** The organization tree's node kinds, and the text that refuses an empty name of each. */
export type TreeNodeKind = 'organization' | 'building' | 'floor';
export const EMPTY_NAME_TEXT: Record<TreeNodeKind, string> = {
  organization: ORGANIZATION_NAME_EMPTY_TEXT,
  building: BUILDING_NAME_EMPTY_TEXT,
  floor: FLOOR_NAME_EMPTY_TEXT,
};
export const EMAIL_REQUIRED_TEXT = 'Please Enter email.';
export const EMAIL_INVALID_TEXT = 'Please Enter valid email.';
