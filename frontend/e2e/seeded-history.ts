/**
 * The demo devices' seeded day of readings, as the browser tests open it. It ends when the stack was
 * seeded (`historyEnd`, provided by the test setup), which may be on the day before the one a test
 * runs in: a page that opens a sensor on "today" shows no data in a run that crossed midnight.
 */

const two = (n: number) => String(n).padStart(2, '0');

/** A day as the sensor page writes it, in its button, its picker and its links (dd-mm-yyyy). */
export const ddmmyyyy = (d: Date) => `${two(d.getDate())}-${two(d.getMonth() + 1)}-${d.getFullYear()}`;

/**
 * A moment whose day, from its midnight to that moment, holds at least 12 hours of the seeded
 * readings: the history's end when it fell after noon, else the last minute of the day before
 * (the history covers the 24 hours before its end). A page whose clock starts there opens its
 * sensors on a day of data, whenever the run started.
 */
export function seededDay(historyEnd: number): Date {
  const end = new Date(historyEnd);
  if (end.getHours() >= 12) return end;
  end.setHours(0, 0, 0, 0);
  return new Date(end.getTime() - 60_000);
}
