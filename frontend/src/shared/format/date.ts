const two = (n: number) => String(n).padStart(2, '0');

/** A date as the specification displays dates: dd-mm-yyyy, in the browser's time zone. */
export function formatDate(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value);
  return `${two(date.getDate())}-${two(date.getMonth() + 1)}-${date.getFullYear()}`;
}

/** dd-mm-yyyy hh:mm, for moments (notifications, commands). */
export function formatDateTime(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value);
  return `${formatDate(date)} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
