import * as z from 'zod';
import { DomainError } from '../domain/errors';

/** Identifiers of organizations, buildings, floors, users and notifications; request bodies. */
export { body, devId, devType, id, port } from '@argentum/events/contracts/requests';

/** A date range as the date picker sends it. */
export const dateRange = z.strictObject({
  startDate: z.union([z.string().max(40), z.number()]),
  endDate: z.union([z.string().max(40), z.number()]),
  key: z.string().max(40).optional(),
});

/** Handler for a documented call whose behaviour has not been delivered yet. */
export function notAvailableYet(call: string) {
  return async (): Promise<never> => {
    throw new DomainError('not-available', `${call} is not available yet.`);
  };
}
