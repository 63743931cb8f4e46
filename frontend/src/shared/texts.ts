// Texts fixed by the specification (access-admin-notifications.md), spelling included.
export const PRODUCT_NAME = 'Argentum';
export const UNEXPECTED_ERROR_TEXT = 'An unexpected error occured.';
export const OFFLINE_TEXT = 'Please Check your internet Connectivity!';
export const BACK_ONLINE_TEXT = 'Connectivity has been resume!';

/** How long the "back online" banner stays (spec section 9). */
export const BACK_ONLINE_BANNER_MS = 5000;
