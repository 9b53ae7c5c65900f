/** One record of a CSV file and the line it starts on (1-based), for messages that point into the file. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class CsvSyntaxError extends Error {}

/**
 * Splits CSV text into records (RFC 4180: comma-separated, fields optionally in double quotes with quotes doubled,
 * line breaks inside quotes kept; CRLF or LF). A leading byte-order mark is dropped and blank lines are skipped.
 */
export function csvRecords(text: string): CsvRecord[] {
  const source = text.replace(/^\uFEFF/, '');
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 0;
  let afterQuote = false;

  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]?.trim() !== '') records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
    afterQuote = false;
  };

  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
        afterQuote = true;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"') {
      if (cell.trim() !== '' || afterQuote)
        throw new CsvSyntaxError(`Line ${line} has a quote (") inside a field that does not start with one.`);
      cell = '';
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
      afterQuote = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (afterQuote && c.trim() !== '') {
      throw new CsvSyntaxError(`Line ${line} has text after the closing quote of a field.`);
    } else {
      cell += c;
    }
  }
  if (quoted) throw new CsvSyntaxError(`The quote (") opened on line ${quoteLine} is never closed.`);
  endRecord();
  return records;
}
