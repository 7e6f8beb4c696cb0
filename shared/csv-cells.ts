/**
 * CSV text split into rows and cells (RFC 4180: a cell in quotes `"…"` may hold the separator, a line break and a
 * quote doubled; the quotes are taken off and the spaces kept). A row ends at `\n`, `\r\n` or `\r` outside quotes.
 * The price lists' import reads its rows' cells with it (shared/prices/items-csv.ts), and the electronegativity test
 * the scanner's report: anything else that reads a CSV takes it rather than a copy.
 */
export function csvRows(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      row.push(cur);
      cur = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cur);
      rows.push(row);
      row = [];
      cur = '';
    } else cur += ch;
  }
  // The last row, unless the text ended with its line break.
  if (cur !== '' || row.length > 0 || rows.length === 0) {
    row.push(cur);
    rows.push(row);
  }
  return rows;
}

/** One line of a CSV file (no line break in it) split into its cells at `sep`: `csvRows` of one row. */
export function csvCells(line: string, sep: string): string[] {
  return csvRows(line, sep)[0] ?? [''];
}
