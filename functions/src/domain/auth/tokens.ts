import { createHash, randomBytes } from 'node:crypto';

/** Invite links are valid for 7 days, reset links for 1 hour. */
export const INVITE_VALIDITY_SECONDS = 7 * 24 * 3600;
export const RESET_VALIDITY_SECONDS = 3600;

/** A new token: 32 random bytes, base64url. Only its hash is ever stored. */
export const newToken = () => randomBytes(32).toString('base64url');

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
