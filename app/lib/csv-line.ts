// CSV lines for exports of millions of rows (RFC 4180): a cell holding a comma, a double quote or a
// line break is quoted, with its double quotes doubled. Written out because csv-stringify, measured
// on the connections export, cost about 6 µs and half a kilobyte of garbage per row: a third of the
// time budget and most of the memory growth (docs/decisions/0006-connections-at-scale.md).

//
// Every text cell goes through plainText, so no export can forget it: names of networks, access
// points, devices and customers are typed by operators and guests.

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
/** A signed number (a phone number in E.164, a negative figure) is no formula: it stays as it is. */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

export type Cell = string | number | null | undefined;

/**
 * Every CSV file starts with the UTF-8 byte-order mark: without it Excel reads the file as the
 * Windows code page and "Kahawa Corner Café" comes out as "Kahawa Corner CafÃ©". Other readers
 * (LibreOffice, Google Sheets, Python's "utf-8-sig", csv-parse with `bom: true`) skip it.
 */
export const CSV_BOM = "\uFEFF";

/** The first line of a CSV file: the byte-order mark, then the header. */
export function csvHeader(cells: readonly Cell[]): string {
  return CSV_BOM + csvLine(cells);
}

/** A whole CSV file (its header first): the byte-order mark, then the lines. */
export function csvFile(rows: readonly (readonly Cell[])[]): string {
  return CSV_BOM + csvLines(rows);
}

/** One cell: text kept from being read as a formula, quoted when it must be. */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = plainText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, ending in "\n". */
export function csvLine(cells: readonly Cell[]): string {
  let line = csvCell(cells[0]);
  for (let i = 1; i < cells.length; i++) line += `,${csvCell(cells[i])}`;
  return `${line}\n`;
}

/** Several lines. */
export function csvLines(rows: readonly (readonly Cell[])[]): string {
  let text = "";
  for (const row of rows) text += csvLine(row);
  return text;
}

/**
 * Text that a spreadsheet would read as a formula ("=HYPERLINK(…)", "+…", "-…", "@…") gets a
 * leading apostrophe, as OWASP advises.
 */
export function plainText(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}
