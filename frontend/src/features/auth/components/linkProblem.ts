import { ApiError } from '../../../shared/api/client';
import { SOMETHING_WENT_WRONG_TEXT } from '@argentum/contracts';

/** What to show when a link's call failed: 410 means expired or used; other 4xx say what is wrong. */
export function linkProblem(error: unknown, expiredText: string): string {
  if (error instanceof ApiError && error.status === 410) return expiredText;
  if (error instanceof ApiError && error.isClientError) return error.message;
  return SOMETHING_WENT_WRONG_TEXT;
}
