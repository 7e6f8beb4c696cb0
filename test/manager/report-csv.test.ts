/**
 * The report CSVs as a Serbian spreadsheet reads them (issue 38 §6), through the core's contract: cells separated
 * by `;`, amounts with the decimal comma that add up to the screen's figures, the period and the receipts' times
 * in the shop's format on Belgrade's clock, and the file named by the report's own day (a Belgrade day starts at
 * 23:00 UTC the evening before: the name used to be that UTC date, the day before). English keeps the machine
 * format scripts read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportView } from '../../shared/contract/reports.ts';
import { BREAD_AND_MILK, MANAGER_PIN, closeCores, ok, startCore } from '../support/session.ts';
import { dayStart } from '../../shared/i18n/time.ts';

afterEach(closeCores);

/** One CSV line's cells (quoted cells unquoted), split at `sep` outside quotes. */
function cells(line: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cur += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
/** A Serbian spreadsheet's CSV file (CRLF lines, `;` between cells) as its rows of cells. */
const rowsOf = (csv: string): string[][] =>
  csv
    .trimEnd()
    .split('\r\n')
    .map((l) => cells(l, ';'));
/** A Serbian amount cell (`1234,50`) as para; NaN for anything else. */
const para = (cell: string | undefined): number =>
  /^-?\d+,\d{2}$/.test(cell ?? '') ? Math.round(Number((cell ?? '').replace(',', '.')) * 100) : Number.NaN;

describe('report CSV for a Serbian spreadsheet', () => {
  it('`;`, the decimal comma, Belgrade times and the file named by its own day', async () => {
    // 00:30 on 27 November in Belgrade (23:30 UTC on the 26th).
    const t = Date.parse('2026-11-26T23:30:00Z');
    const core = await startCore({ now: () => t });
    await ok(core, 'sales.checkout', BREAD_AND_MILK);
    await ok(core, 'sales.checkout', { ...BREAD_AND_MILK, payments: [{ type: 'card', amount: 540 }] });
    const day = {
      from: new Date(dayStart('2026-11-27')).toISOString(),
      to: new Date(dayStart('2026-11-28')).toISOString(),
    };
    const screen = await ok<ReportView>(core, 'reports.summary', day);

    const report = await ok<{ fileName: string; csv: string }>(core, 'reports.csv', day);
    expect(report.fileName).toBe('presek-2026-11-27.csv');
    const rows = rowsOf(report.csv);
    expect(rows[0]).toEqual(['Одељак', 'Ставка', 'Број', 'Износ (RSD)', 'Порез (RSD)']);
    expect(rows.every((r) => r.length === 5)).toBe(true);
    expect(rows[1]?.slice(0, 2)).toEqual(['Период', '27.11.2026. 00:00 – 28.11.2026. 00:00']);
    const sales = rows.find((r) => r[0] === 'Продаје');
    expect(para(sales?.[3])).toBe(screen.sales.totalPara);
    expect(sales?.[3]).toBe('1080,00');
    const payments = rows.filter((r) => r[0] === 'Плаћање');
    expect(payments.map((r) => [r[1], para(r[3])])).toEqual([
      ['Готовина', 54_000],
      ['Платна картица', 54_000],
    ]);
    expect(payments.reduce((s, r) => s + para(r[3]), 0)).toBe(screen.grossPara);

    const receipts = await ok<{ fileName: string; csv: string }>(core, 'reports.receiptsCsv', day);
    expect(receipts.fileName).toBe('racuni-2026-11-27.csv');
    const lines = rowsOf(receipts.csv);
    const body = lines.slice(1, -1);
    expect(body).toHaveLength(2);
    for (const r of body) {
      expect(r).toHaveLength(9);
      expect(r[0]).toBe('27.11.2026. 00:30');
    }
    expect(body.reduce((s, r) => s + para(r[6]), 0)).toBe(screen.grossPara);
    expect(para(lines.at(-1)?.[6])).toBe(screen.grossPara);
  });

  it('a week is named by its first and last day; English keeps `,` and the point', async () => {
    const t = Date.parse('2026-11-26T10:00:00Z');
    const core = await startCore({ now: () => t });
    await ok(core, 'sales.checkout', BREAD_AND_MILK);
    const week = {
      from: new Date(dayStart('2026-11-20')).toISOString(),
      to: new Date(dayStart('2026-11-27')).toISOString(),
    };
    expect((await ok<{ fileName: string }>(core, 'reports.csv', week)).fileName).toBe(
      'presek-2026-11-20_2026-11-26.csv',
    );
    await ok(core, 'settings.update', { managerPin: MANAGER_PIN, language: 'en' });
    const en = await ok<{ csv: string }>(core, 'reports.csv', week);
    expect(en.csv.split('\r\n')[0]).toBe('section,key,count,amount_rsd,tax_rsd');
    expect(en.csv).toContain('"sales","total",1,540.00,');
  });
});
