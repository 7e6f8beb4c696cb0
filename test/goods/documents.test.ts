/**
 * The A4 documents (shared/node/a4.ts, electron/goods/documents.ts) read back by poppler's `pdftotext`: the
 * Cyrillic text, the shop's title block, „Страна N од M“ on every page with the table's header repeated, the totals,
 * the print date in the shop's zone (never ISO). With KASA_SHOTS set, the pages are also rendered
 * with `pdftoppm` into that folder (goods-*.png) for a person to look at.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CountView, PdfFile, ReceiptView, SupplierView, WriteOffView } from '../../shared/contract/goods.ts';
import type { ProductView } from '../../shared/contract/catalog.ts';
import { a4Pdf } from '../../shared/node/a4.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { closeCores, MANAGER_PIN, ok, startCore, tempDir, saveReceipt } from '../support/session.ts';
import { keepPdfPages } from '../support/shots.ts';

afterEach(closeCores);

const managerPin = MANAGER_PIN;
const today = (): string => dayIn(new Date());
const serbianDay = (day: string): string => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}.`;

/** The text of a PDF, page by page (pdftotext separates pages by a form feed). */
function pages(bytes: Uint8Array, name: string): string[] {
  const dir = tempDir('kasa-pdf-');
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  keepPdfPages(file, `goods-${name}`, 60);
  return text.split('\f').filter((p) => p.trim() !== '');
}

const decode = (f: PdfFile): Uint8Array => new Uint8Array(Buffer.from(f.base64, 'base64'));

describe('the A4 layout', () => {
  it('numbers every page, repeats the table header on each, prints the date in Belgrade time', async () => {
    const printedAt = new Date('2026-11-28T23:30:00Z'); // 29.11.2026. 00:30 in Belgrade
    const bytes = await a4Pdf({
      language: 'sr-Cyrl',
      shop: { name: 'Продавница Жабаљ', pib: '101134702', address: 'Главна 1, Жабаљ' },
      title: 'Пробни документ',
      lines: ['Датум: 29.11.2026.'],
      columns: [
        { header: 'Шифра', width: 1 },
        { header: 'Назив артикла', width: 4 },
        { header: 'Износ', width: 1.5, align: 'right' },
      ],
      rows: Array.from({ length: 150 }, (_, i) => [
        `Š${i + 1}`,
        `Ћевапчићи ${i + 1} ${'дуг опис '.repeat(i % 7)}`,
        `${i + 1},00`,
      ]),
      totals: [['Укупно', '', '11.325,00']],
      after: ['Потпис: ______________'],
      printedAt,
    });
    const text = pages(bytes, 'a4-layout');
    expect(text.length).toBeGreaterThan(2);
    text.forEach((page, i) => {
      expect(page).toContain(`Страна ${i + 1} од ${text.length}`);
      expect(page).toContain('Назив артикла');
      expect(page).toContain('Одштампано: 29.11.2026. 00:30');
      expect(page).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    });
    expect(text[0]).toContain('Продавница Жабаљ');
    expect(text[0]).toContain('ПИБ: 101134702');
    expect(text.at(-1)).toContain('11.325,00');
    expect(text.join('\n')).toContain('Ћевапчићи 150');
  });
});

describe('the goods documents', () => {
  it('the KEP, a receipt with its calculation, a write-off and a count come out as A4 PDFs in the language', async () => {
    const c = await startCore();
    await ok(c, 'settings.update', {
      managerPin,
      shopName: 'Бакалница Ђурђевак',
      shopPib: '101134702',
      shopAddress: 'Његошева 5, Нови Сад',
    });
    const supplier = await ok<SupplierView>(c, 'suppliers.put', {
      managerPin,
      name: 'Велепродаја Чачак',
      pib: '113460262',
    });
    await ok<ProductView>(c, 'catalog.put', {
      code: 'ŠL1',
      create: true,
      name: 'Шљивовица',
      price: 1200,
      label: 'A',
      unit: 'piece',
      group: 'Пиће',
      favourite: false,
      barcodes: [],
      approval: { managerPin },
    });
    const draft = await saveReceipt(c, {
      supplierId: supplier.id,
      invoiceNumber: 'Ф-77',
      invoiceDate: today(),
      lines: [{ code: 'ŠL1', quantity: 12, purchasePrice: 800, discountPercent: 5, retailPrice: 1200 }],
    });
    const receipt = await ok<ReceiptView>(c, 'goods.receiptPost', { managerPin, id: draft.id });
    const wo = await ok<WriteOffView>(c, 'goods.writeOff', {
      managerPin,
      code: 'ŠL1',
      quantity: 1,
      reason: 'разбијена',
    });
    const counting = await ok<CountView>(c, 'goods.countStart', { managerPin });
    await ok(c, 'goods.countEnter', { id: counting.id, lines: [{ code: 'ŠL1', quantity: 10 }] });
    await ok(c, 'goods.countPost', { managerPin, id: counting.id });

    const kep = pages(decode(await ok<PdfFile>(c, 'goods.kepPdf', { from: today(), to: today() })), 'kep-sr-Cyrl');
    expect(kep[0]).toContain('Бакалница Ђурђевак');
    expect(kep[0]).toContain('ПИБ: 101134702');
    expect(kep[0]).toContain('Његошева 5, Нови Сад');
    expect(kep[0]).toContain('Књига евиденције промета (КЕП)');
    expect(kep[0]).toContain(`Период: ${serbianDay(today())} – ${serbianDay(today())}`);
    expect(kep[0]).toContain('Пријемница бр.');
    expect(kep[0]).toContain('Попис бр.');
    expect(kep[0]).toContain('14.400,00'); // 12 × 1.200,00 received
    expect(kep[0]).toContain('Страна 1 од 1');
    expect(kep[0]).toMatch(/Стање на крају периода\s+12\.000,00/);

    const calc = pages(decode(await ok<PdfFile>(c, 'goods.receiptPdf', { id: receipt.id })), 'receipt-sr-Cyrl');
    expect(calc[0]).toContain(`Пријемница са калкулацијом бр. ${receipt.number}`);
    expect(calc[0]).toContain('Добављач: Велепродаја Чачак, ПИБ 113460262');
    expect(calc[0]).toContain('Шљивовица');
    expect(calc[0]).toContain('9.120,00'); // 12 × 760,00 net purchase
    expect(calc[0]).toContain('Страна 1 од 1');

    const off = pages(decode(await ok<PdfFile>(c, 'goods.writeOffPdf', { id: wo.id })), 'writeoff-sr-Cyrl');
    expect(off[0]).toContain(`Отпис робе бр. ${wo.number}`);
    expect(off[0]).toContain('Разлог: разбијена');

    const list = pages(decode(await ok<PdfFile>(c, 'goods.countPdf', { id: counting.id })), 'count-sr-Cyrl');
    expect(list[0]).toContain(`Пописна листа бр. ${counting.number}`);
    expect(list[0]).toContain('Обухват: цела продавница');
    expect(list[0]).toMatch(/Мањак\s+1\.200,00/);

    await ok(c, 'settings.update', { managerPin, language: 'en' });
    const en = pages(decode(await ok<PdfFile>(c, 'goods.kepPdf', { from: today(), to: today() })), 'kep-en');
    expect(en[0]).toContain('Book of turnover records (KEP)');
    expect(en[0]).toContain('Page 1 of 1');
  });
});
