const two = (n: number) => String(n).padStart(2, '0');
const asDate = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));

/** A date as the specification displays dates: dd-mm-yyyy, in the browser's time zone. */
export function formatDate(value: Date | string | number): string {
  const date = asDate(value);
  return `${two(date.getDate())}-${two(date.getMonth() + 1)}-${date.getFullYear()}`;
}

/** hh:mm in the browser's time zone. */
export function formatTime(value: Date | string | number): string {
  const date = asDate(value);
  return `${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** dd-mm-yyyy hh:mm, for moments (notifications, commands, readings). */
export function formatDateTime(value: Date | string | number): string {
  const date = asDate(value);
  return `${formatDate(date)} ${formatTime(date)}`;
}
