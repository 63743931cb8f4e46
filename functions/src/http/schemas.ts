import * as z from 'zod';

/** Identifiers of organizations, buildings, floors, users and notifications; request bodies. */
export { body, devId, devType, id, port } from '@argentum/events/contracts/requests';

/** A date range as the date picker sends it. */
export const dateRange = z.strictObject({
  startDate: z.union([z.string().max(40), z.number()]),
  endDate: z.union([z.string().max(40), z.number()]),
  key: z.string().max(40).optional(),
});
