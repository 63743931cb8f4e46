import { STAGING_PREFIX } from '../files/keys';

/** Export files are temporary: under the staging prefix, whose objects expire after a day. */
export const EXPORT_PREFIX = `${STAGING_PREFIX}exports/`;
