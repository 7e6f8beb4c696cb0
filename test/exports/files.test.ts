/**
 * The export files of a period, on a core with its real SQLite file and the sandbox gateway over HTTP: a sale, a
 * refund, an advance and its final sale, a goods receipt and a price change.
 * - The Minimax file follows Minimax's import layout for postings („Knjiženja – uputstva za uvoz u Minimax (excel)“,
 *   docs/exports.md): its columns in the template's order, dates D.M.YYYY without a dot after the year, accounts in
 *   digits, amounts with the decimal comma, one side of each row zero, debit = credit.
 * - The CSVs follow docs/exports.md: `;`, the decimal comma, CRLF, Serbian headers; English the machine dialect.
 * - The PDF reads back (pdftotext) with its sections and totals, and its pages render (pdftoppm) for a look.
 * - The monthly run writes the past month once into the folder: a restart writes nothing again, a day not yet
 *   come writes nothing; a folder that is not there is refused at its field.
 * - Bad input: an end before the start at `to`, an account that is not digits at its key; nothing saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { PdfFile } from '../../shared/contract/goods.ts';
import type { AccountsView, ExportView, ScheduleView } from '../../shared/contract/exports.ts';
import type { SupplierView } from '../../shared/contract/goods.ts';
import type { OrderView } from '../../shared/domain.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { openDatabase } from '../../electron/db/open.ts';
import { createExportSchedule, monthBefore } from '../../electron/exports/schedule.ts';
import { Settings } from '../../electron/settings/settings.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore, tempDir, saveReceipt } from '../support/session.ts';
import { keepPdfPages } from '../support/shots.ts';
import { putProduct, refund } from './support.ts';

const managerPin = MANAGER_PIN;
type Core = Awaited<ReturnType<typeof startCore>>;
let c: Core;
let dataDir: string;
const today = dayIn(new Date());

const file = async (kind: string, lang?: string): Promise<{ name: string; text: string; bytes: Buffer }> => {
  if (lang) await ok(c, 'settings.update', { managerPin, language: lang });
  const f = await ok<PdfFile>(c, 'exports.file', { managerPin, from: today, to: today, kind });
  const bytes = Buffer.from(f.base64, 'base64');
  return { name: f.fileName, text: bytes.toString('utf8'), bytes };
};

beforeAll(async () => {
  dataDir = tempDir('kasa-exports-');
  c = await startCore({ dataDir });
  const supplier = await ok<SupplierView>(c, 'suppliers.put', { managerPin, name: 'Житопродукт', pib: '101134702' });
  const p = await putProduct(c, 'B1', 'Брашно', 120, true);
  const draft = await saveReceipt(c, {
    supplierId: supplier.id,
    invoiceNumber: 'Ф-77',
    invoiceDate: today,
    lines: [{ code: 'B1', quantity: 10, purchasePrice: 80, retailPrice: 120 }],
  });
  await ok(c, 'goods.receiptPost', { managerPin, id: draft.id });
  const sale = await ok<OrderView>(c, 'sales.checkout', {
    lines: [
      { name: p.name, productId: p.id, quantity: 2, unitPrice: 120, labels: ['A'] },
      { name: 'Кеса', quantity: 1, unitPrice: 5, labels: ['E'] },
    ],
    payments: [
      { type: 'cash', amount: 145 },
      { type: 'card', amount: 100 },
    ],
  });
  await refund(c, sale.orderId);
  const adv = await ok<OrderView>(c, 'sales.checkout', {
    lines: [{ name: 'Торта', quantity: 1, unitPrice: 1000, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 1000 }],
    invoiceType: 'advance',
  });
  await ok(c, 'advances.finalize', {
    orderId: adv.orderId,
    lines: [{ name: 'Торта', quantity: 1, unitPrice: 2500, labels: ['A'] }],
    payments: [{ type: 'card', amount: 1500 }],
  });
  await putProduct(c, 'B1', 'Брашно', 130);
}, 60_000);
afterAll(closeCores);

describe('the export files', () => {
  it('the Minimax file follows the import layout for postings, and balances', async () => {
    const view = await ok<ExportView>(c, 'exports.build', { managerPin, from: today, to: today });
    const { name, text } = await file('minimax');
    expect(name).toBe(`minimax_knjizenja_${today}_${today}.csv`);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = text.slice(0, -2).split('\r\n');
    // The template's columns in its order (docs/exports.md), written out here, not read from the code.
    expect(rows[0]).toBe('Datum;Opis;Konto;Stranka;Analitika;Radnik;Duguje;Potražuje');
    expect(rows.length - 1).toBe(view.journal.length);
    let debit = 0;
    let credit = 0;
    const [y, m, d] = today.split('-').map(Number);
    for (const row of rows.slice(1)) {
      const cells = row.split(';');
      expect(cells).toHaveLength(8);
      const [date, description, account, party, analytic, worker, dr, cr] = cells as [string, ...string[]];
      expect(date).toBe(`${d}.${m}.${y}`); // D.M.YYYY, no dot after the year
      expect(description).toMatch(/^".+"$/);
      expect(account).toMatch(/^\d{3,10}$/);
      expect([party, analytic, worker]).toEqual(['', '', '']);
      expect(dr).toMatch(/^\d+,\d{2}$/);
      expect(cr).toMatch(/^\d+,\d{2}$/);
      expect(dr === '0,00' || cr === '0,00').toBe(true);
      debit += Math.round(Number(dr?.replace(',', '.')) * 100);
      credit += Math.round(Number(cr?.replace(',', '.')) * 100);
    }
    expect(debit).toBe(credit);
    expect(debit).toBe(view.journalTotals.debitPara);
  });

  it('the CSVs: Serbian dialect with the documented columns, English the machine one', async () => {
    const turnover = await file('turnover', 'sr-Cyrl');
    const lines = turnover.text.split('\r\n');
    expect(lines[0]).toBe(
      '"Датум";"Врста";"Ознака или плаћање";"Стопа (%)";"Бруто (RSD)";"ПДВ (RSD)";"Нето (RSD)";"Продаја (RSD)";"Рефундације (RSD)"',
    );
    expect(turnover.text).toMatch(/"по стопи";"A";10;\d+,\d{2};\d+,\d{2};\d+,\d{2};;/);
    expect(turnover.text).toMatch(/"по плаћању";"Готовина";;\d+,\d{2};;;\d+,\d{2};\d+,\d{2}/);
    const journal = await file('journal');
    expect(journal.text.split('\r\n')[0]).toBe(
      '"Налог";"Датум";"Документ";"Конто";"Назив конта";"Опис";"Дугује (RSD)";"Потражује (RSD)"',
    );
    expect(journal.text).toContain('"6041";"Приход од продаје робе, 10 %"');
    const goods = await file('goods');
    expect(goods.text).toMatch(/"Пријемница";"1\/\d{4}";"Житопродукт";"101134702";"Ф-77";800,00;1200,00;109,09;290,91/);
    expect(goods.text).toContain('"Нивелација"');
    const documents = await file('documents');
    expect(documents.text.split('\r\n').length).toBeGreaterThan(4);
    const kep = await file('kep');
    expect(kep.name).toBe(`KEP_${today}_${today}.csv`);
    const en = await file('turnover', 'en');
    expect(en.text.split('\r\n')[0]).toBe(
      '"date","kind","label_or_payment","rate_percent","gross_rsd","tax_rsd","net_rsd","sales_rsd","refunds_rsd"',
    );
    await ok(c, 'settings.update', { managerPin, language: 'sr-Cyrl' });
  });

  it('the PDF reads back with its sections and renders', async () => {
    const pdf = await file('pdf', 'sr-Cyrl');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const dir = tempDir('kasa-exports-pdf-');
    const at = path.join(dir, 'izvoz.pdf');
    fs.writeFileSync(at, pdf.bytes);
    const text = execFileSync('pdftotext', ['-layout', at, '-']).toString();
    for (const word of ['Извоз за књиговођу', 'Промет по данима', 'Пријемнице и', 'КЕП', 'Налог за књижење'])
      expect(text).toContain(word);
    expect(text).toMatch(/Страна 1 од \d/);
    keepPdfPages(at, 'exports-pdf', 60);
  });

  it('bad input is refused at its field and nothing is saved', async () => {
    expect(await fails(c, 'exports.build', { managerPin, from: today, to: '2020-01-01' })).toMatchObject({
      code: 'invalid_input',
      field: 'to',
    });
    const before = await ok<AccountsView>(c, 'exports.accounts', { managerPin });
    const bad = await fails(c, 'exports.saveAccounts', { managerPin, accounts: { cash: '24a', cards: '2411' } });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'accounts.cash' });
    expect(bad.message).toContain('Конто: Благајна');
    expect(await ok<AccountsView>(c, 'exports.accounts', { managerPin })).toEqual(before);
    const saved = await ok<AccountsView>(c, 'exports.saveAccounts', { managerPin, accounts: { cards: '2411' } });
    expect(saved.accounts.cards).toBe('2411');
    const journal = await file('journal');
    expect(journal.text).toContain('"2411"');
    expect(
      await fails(c, 'exports.saveSchedule', { managerPin, exportDay: 5, exportFolder: '/nowhere/at/all' }),
    ).toMatchObject({ code: 'invalid_input', field: 'exportFolder' });
    expect(await fails(c, 'exports.saveSchedule', { managerPin, exportDay: 31, exportFolder: null })).toMatchObject({
      field: 'exportDay',
    });
    expect((await ok<ScheduleView>(c, 'exports.schedule', { managerPin })).day).toBeNull();
  });

  it('the monthly run writes the past month once, atomically, and again after a restart writes nothing', async () => {
    const folder = tempDir('kasa-exports-folder-');
    await ok(c, 'exports.saveSchedule', { managerPin, exportDay: 3, exportFolder: folder });
    const at = (iso: string) => Date.parse(iso);
    let now = at('2026-12-02T10:00:00Z');
    const written: string[] = [];
    const schedule = (db: typeof c.db) =>
      createExportSchedule(db, {
        get: (k) => new Settings(db).get(k),
        set: (k, v) => new Settings(db).set(k, v),
        now: () => now,
        file: async (from, to, kind) => {
          written.push(kind);
          return ok<PdfFile>(c, 'exports.file', { managerPin, from, to, kind });
        },
        audit: () => undefined,
      });
    const first = schedule(c.db);
    expect(await first.runDue()).toBeNull(); // the 2nd: the day has not come
    now = at('2026-12-05T10:00:00Z');
    expect(await first.runDue()).toBe('2026-11');
    expect(await first.runDue()).toBeNull();
    const month = path.join(folder, '2026-11');
    const files = fs.readdirSync(month).sort();
    expect(files).toHaveLength(7);
    expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);
    expect(files).toContain('minimax_knjizenja_2026-11-01_2026-11-30.csv');
    // A restart: another database handle on the same file finds the month done.
    const again = openDatabase(path.join(dataDir, 'kasa.sqlite'));
    try {
      const count = written.length;
      expect(await schedule(again).runDue()).toBeNull();
      expect(written.length).toBe(count);
      expect((await ok<ScheduleView>(c, 'exports.schedule', { managerPin })).runs.map((r) => r.month)).toEqual([
        '2026-11',
      ]);
    } finally {
      again.close();
    }
    expect(monthBefore('2027-01-15')).toEqual({ month: '2026-12', from: '2026-12-01', to: '2026-12-31' });
  });
});
