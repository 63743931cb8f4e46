const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/**
 * A length of time shortened as the specification writes relative times: 1m, 1h, 1d, 1mth, 1y (whole
 * units, rounded down; under a minute is 0m, a negative one too).
 */
export function shortDuration(ms: number): string {
  const length = Math.max(0, ms);
  if (length >= YEAR) return `${Math.floor(length / YEAR)}y`;
  if (length >= MONTH) return `${Math.floor(length / MONTH)}mth`;
  if (length >= DAY) return `${Math.floor(length / DAY)}d`;
  if (length >= HOUR) return `${Math.floor(length / HOUR)}h`;
  return `${Math.floor(length / MINUTE)}m`;
}

/** How long ago `time` was (`shortDuration`; a time in the future counts as now). */
export const formatRelativeTime = (time: number, now: number): string => shortDuration(now - time);

/**
 * The least offset of a device's clock worth telling its users (ms): the offset is learnt as its
 * reading's time less the broker's receipt of it, so it also holds the reading's transit, and
 * clocks kept by NTP stay well inside a second. From a minute on, the times its readings carry (its
 * history, its latest value's time) visibly differ from the wall clock.
 */
export const CLOCK_OFFSET_SHOWN_MS = MINUTE;

/**
 * How far a device's clock runs from the broker's, in words ('40m behind', '2m ahead'), when that is
 * worth telling (`CLOCK_OFFSET_SHOWN_MS`); undefined when it is not, or not known.
 */
export function clockOffsetText(clockOffset: number | undefined): string | undefined {
  if (clockOffset === undefined || Math.abs(clockOffset) < CLOCK_OFFSET_SHOWN_MS) return undefined;
  return `${shortDuration(Math.abs(clockOffset))} ${clockOffset > 0 ? 'ahead' : 'behind'}`;
}
