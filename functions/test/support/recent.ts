/**
 * Times for readings a test stores: recent ones. Raw readings expire 35 days after their time and
 * DynamoDB Local's TTL deletes them, so readings of a fixed date vanish mid-test once it is that old.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The start of the hour `n` hours before the current one (ms). */
export const hoursAgo = (n: number) => Math.floor(Date.now() / HOUR) * HOUR - n * HOUR;

/** UTC midnight `n` days before today's (ms). */
export const daysAgo = (n: number) => Math.floor(Date.now() / DAY) * DAY - n * DAY;
