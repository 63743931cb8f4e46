/**
 * Spreadsheet cells of an export: formula injection is escaped in every format a spreadsheet opens.
 * A text cell that starts with = + - @ tab or carriage return would be run as a formula by Excel,
 * LibreOffice or Google Sheets when the file is opened (or re-saved as CSV and opened again), so it
 * gets a leading apostrophe, the spreadsheets' own "this is text" mark. Numbers are written as numbers.
 */
export type Cell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell as the spreadsheet should see it: text escaped, finite numbers as they are, the rest empty. */
export function safeCell(cell: Cell): string | number | null {
  if (cell === null) return null;
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
