import type { XlsWriter } from '../domain/export/ports';
import { type Cell, isTimeCell, safeCell, spreadsheetSerial } from '../domain/export/cells';

/** A moment as a real date cell (the wall-clock time in the user's zone); any other cell made safe. */
const xlsCell = (cell: Cell) =>
  isTimeCell(cell)
    ? { t: 'n' as const, v: spreadsheetSerial(cell), z: 'yyyy-mm-dd hh:mm:ss' }
    : safeCell(cell);

/**
 * Excel 97-2003 workbooks (.xls) written as true BIFF8 in an OLE2 compound file, so Excel and
 * LibreOffice open them without the "format and extension don't match" warning that an HTML or XML
 * table named .xls raises. The writer is SheetJS Community Edition 0.20.3 as republished on the npm
 * registry (`@e965/xlsx`): the `xlsx` package on npm stopped at 0.18.5 and lacks the later fixes
 * (prototype pollution, ReDoS), and SheetJS's own CDN is not reachable from every build machine.
 * Loaded on first use only, so the data Lambda's other routes do not pay for it at cold start.
 */
export const sheetJsXlsWriter: XlsWriter = {
  async write(sheets) {
    const XLSX = await import('@e965/xlsx');
    const book = XLSX.utils.book_new();
    for (const sheet of sheets) {
      const rows = [sheet.header.map((h) => safeCell(h)), ...sheet.rows.map((row) => row.map(xlsCell))];
      // Every value stays what it is: text is never parsed as a date, a number or a formula.
      const worksheet = XLSX.utils.aoa_to_sheet(rows, { cellDates: false });
      XLSX.utils.book_append_sheet(book, worksheet, sheet.name);
    }
    const bytes = XLSX.write(book, { bookType: 'biff8', type: 'buffer', compression: false }) as Buffer;
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};
