/**
 * Spreadsheet cells of an export: formula injection is escaped in every format a spreadsheet opens.
 * A text cell that starts with = + - @ tab or carriage return would be run as a formula by Excel,
 * LibreOffice or Google Sheets when the file is opened (or re-saved as CSV and opened again), so it
 * gets a leading apostrophe, the spreadsheets' own "this is text" mark. Numbers are written as numbers.
 */
export type Cell = string | number | null | TimeCell;

/** A moment in the user's time zone: ISO text with its offset in CSV and JSON, a real date cell in .xls. */
export interface TimeCell {
  time: number;
  timeZone: string;
}

export const isTimeCell = (cell: Cell | undefined): cell is TimeCell =>
  typeof cell === 'object' && cell !== null;

/** The zone's offset from UTC at `time`, in minutes (east positive). */
export function zoneOffsetMinutes(time: number, timeZone: string): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(time)
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** E.g. 2026-11-24T04:30:00+01:00: the wall-clock time in the zone, with the zone's offset. */
export function zonedIso({ time, timeZone }: TimeCell): string {
  const offset = zoneOffsetMinutes(time, timeZone);
  const wall = new Date(time + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The spreadsheet serial (days since 1899-12-30) of the wall-clock time in the cell's zone. */
export function spreadsheetSerial({ time, timeZone }: TimeCell): number {
  return (time + zoneOffsetMinutes(time, timeZone) * 60_000) / 86_400_000 + 25_569;
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A cell as the spreadsheet should see it: text escaped, finite numbers as they are, a moment as
 * ISO text with the zone's offset, the rest empty.
 */
export function safeCell(cell: Cell): string | number | null {
  if (cell === null) return null;
  if (isTimeCell(cell)) return zonedIso(cell);
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  return escapeFormula(cell);
}

/** One CSV field (RFC 4180): escaped, and quoted when it holds a comma, a quote or a line break. */
function csvField(cell: Cell): string {
  const value = safeCell(cell);
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * CSV with a UTF-8 byte-order mark (Excel reads a file without one in the machine's code page, which
 * breaks units such as °C) and CRLF line ends.
 */
export function toCsv(header: readonly string[], rows: Iterable<readonly Cell[]>): string {
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** JSON: one object per row, keyed by the header. Text is escaped too: JSON is often opened in a spreadsheet. */
export function toJson(header: readonly string[], rows: Iterable<readonly Cell[]>): string {
  const objects: Record<string, string | number | null>[] = [];
  for (const row of rows) {
    const object: Record<string, string | number | null> = {};
    header.forEach((name, i) => (object[escapeFormula(name)] = safeCell(row[i] ?? null)));
    objects.push(object);
  }
  return JSON.stringify(objects, null, 1);
}
