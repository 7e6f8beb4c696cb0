/**
 * The rows of a CSV the manager brings in (a supplier's receipt lines, a handheld's count): a byte-order mark
 * dropped, `;` or a tab between cells, each cell trimmed and freed of its quotes, blank rows left out. `row` is
 * the row's 1-based number in the file, so an error names the row the manager sees.
 */
export function csvRows(csv: string): { row: number; cells: string[] }[] {
  return csv
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .map((text, i) => ({ row: i + 1, text }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ row, text }) => ({ row, cells: text.split(/[;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1')) }));
}
