/**
 * One line of a CSV file split into its cells at `sep` outside quotes (`"…"`, a quote doubled inside one), the
 * quotes taken off and the spaces kept. The price lists' import reads its rows with it (shared/prices/items-csv.ts);
 * anything else that reads a one-line CSV row (a test checking a report's file) can take it rather than a copy.
 */
export function csvCells(line: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
