import { SESSION_EXPIRED_TEXT, tooManyAttemptsText, USER_UNAUTHORIZED_TEXT } from '@argentum/contracts';

/**
 * Typed domain errors. Domain code throws these; the HTTP layer maps each kind to one status code
 * in one place (http/error-mapper.ts). The message is what the client may show.
 */
export type DomainErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'gone'
  | 'too-large'
  | 'unsupported-media-type'
  | 'too-many-requests'
  | 'upstream'
  /** A third-party service did not answer in time. */
  | 'upstream-timeout';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Extra fields for the response body, e.g. { expired: true }. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (message: string) => new DomainError('validation', message);
/** Unauthorized: the documented message unless another is given. */
export const unauthenticated = (message = USER_UNAUTHORIZED_TEXT) =>
  new DomainError('unauthenticated', message);
export const forbidden = (message = USER_UNAUTHORIZED_TEXT) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not-found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
/**
 * The access token belongs to a session that has been ended (a sign-out, a password reset). Flagged
 * like an expired token, so the front end tries its refresh and, when that is refused too, signs in.
 */
export const sessionEnded = () => new DomainError('unauthenticated', SESSION_EXPIRED_TEXT, { expired: true });
/**
 * Refused because too many attempts came for an account or from an address; `retryAfterSeconds` becomes
 * the Retry-After header (http/error-mapper.ts), not part of the body.
 */
export const tooManyRequests = (retryAfterSeconds: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new DomainError('too-many-requests', tooManyAttemptsText(seconds), { retryAfterSeconds: seconds });
};
