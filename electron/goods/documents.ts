/**
 * The goods documents on A4 (docs/goods.md): the KEP book of a period, a goods receipt with its calculation
 * (калкулација), a price change record (нивелација) and a write-off. Each is read from the goods service, laid out
 * by shared/node/a4.ts and handed back as a file (its name and its bytes in base64: the renderer saves it,
 * in the browser host and in Electron alike).
 */
import { CommandError } from '../errors.ts';
import type { PdfFile } from '../../shared/contract/goods.ts';
import type { Language } from '../../shared/domain.ts';
import { formatQuantity, formatRsd } from '../../shared/money.ts';
import { GOODS_DOC_WORDS, type GoodsDocWords } from '../../shared/i18n/goods.ts';
import { formatMoment } from '../../shared/i18n/time.ts';
import { interpolate } from '../../shared/i18n/catalog.ts';
import { kepA4 } from '../../shared/node/kep-a4.ts';
import { countA4 } from '../../shared/node/count-a4.ts';
import type { A4Input, ShopIdentity } from '../../shared/node/a4.ts';
import { receiptA4, reorderA4 } from '../../shared/node/goods-a4.ts';
import { pdfFile } from '../../shared/node/export-files.ts';
import type { GoodsService } from './service.ts';
import type { StocktakeService } from './stocktake.ts';

export interface GoodsDocumentDeps {
  language(): Language;
  shop(): ShopIdentity;
  now(): Date;
}

/** A document's number as part of a file name: 5/2026 → 5-2026. */
const fileNumber = (n: string | null): string => (n ?? 'draft').replace('/', '-');

export { pdfFile };

export type GoodsDocuments = ReturnType<typeof createGoodsDocuments>;

export function createGoodsDocuments(goods: GoodsService, stocktake: StocktakeService, deps: GoodsDocumentDeps) {
  const base = (): Pick<A4Input, 'language' | 'shop' | 'printedAt'> => ({
    language: deps.language(),
    shop: deps.shop(),
    printedAt: deps.now(),
  });

  /**
   * A one-product record (a price change, a write-off) by id as `file`-<number>.pdf: refused as not found when
   * there is none, else its title, its date and then its own lines, its one row and total, and the signatures.
   */
  function recordPdf<D extends { number: string; at: string }>(
    file: string,
    id: number,
    doc: D | null,
    layout: (doc: D, w: GoodsDocWords) => Required<Pick<A4Input, 'title' | 'lines' | 'columns' | 'rows' | 'totals'>>,
  ): Promise<PdfFile> {
    if (!doc) throw new CommandError('not_found', 'goods_document_not_found', { id });
    const lang = deps.language();
    const w = GOODS_DOC_WORDS[lang];
    const { title, lines, columns, rows, totals } = layout(doc, w);
    return pdfFile(`${file}-${fileNumber(doc.number)}.pdf`, {
      ...base(),
      title,
      lines: [interpolate(w.date, { date: formatMoment(doc.at, lang) }), ...lines],
      columns,
      rows,
      totals,
      after: [w.signatures],
    });
  }

  return {
    async kep(from: string, to: string): Promise<PdfFile> {
      return pdfFile(`KEP-${from}-${to}.pdf`, { ...base(), ...kepA4(goods.kep(from, to, false), deps.language()) });
    },

    async receipt(id: number): Promise<PdfFile> {
      const r = goods.receipt(id);
      return pdfFile(`kalkulacija-${fileNumber(r.number)}.pdf`, { ...base(), ...receiptA4(r, deps.language()) });
    },

    async priceChange(id: number): Promise<PdfFile> {
      const widths = [1, 3, 1, 1.1, 1.1, 1.1, 1.3];
      return recordPdf('nivelacija', id, goods.priceChange(id), (p, w) => ({
        title: interpolate(w.priceChangeTitle, { number: p.number }),
        lines: [],
        columns: w.priceChangeHeader.map((header, i) => ({
          header,
          width: widths[i] ?? 1,
          align: i < 2 ? 'left' : 'right',
        })),
        rows: [
          [
            p.code,
            p.name,
            formatQuantity(p.quantityMilli),
            formatRsd(p.oldPara),
            formatRsd(p.newPara),
            formatRsd(p.newPara - p.oldPara),
            formatRsd(p.diffPara),
          ],
        ],
        totals: [[w.total, '', '', '', '', '', formatRsd(p.diffPara)]],
      }));
    },

    async writeOff(id: number): Promise<PdfFile> {
      return recordPdf('otpis', id, goods.writeOffById(id), (o, w) => ({
        title: interpolate(w.writeOffTitle, { number: o.number }),
        lines: [interpolate(w.reason, { reason: o.reason })],
        columns: [
          { header: w.code, width: 1 },
          { header: w.name, width: 3 },
          { header: w.quantity, width: 1, align: 'right' },
          { header: w.unitPrice, width: 1.1, align: 'right' },
          { header: w.value, width: 1.3, align: 'right' },
        ],
        rows: [[o.code, o.name, formatQuantity(o.quantityMilli), formatRsd(o.pricePara), formatRsd(o.valuePara)]],
        totals: [[w.total, '', '', '', formatRsd(o.valuePara)]],
      }));
    },
    async count(id: number): Promise<PdfFile> {
      const c = stocktake.view(id, true);
      return pdfFile(`popis-${fileNumber(c.number)}.pdf`, { ...base(), ...countA4(c, deps.language()) });
    },

    async reorder(): Promise<PdfFile> {
      const day = deps.now();
      return pdfFile(`narucivanje-${day.toISOString().slice(0, 10)}.pdf`, {
        ...base(),
        ...reorderA4(stocktake.reorder(false), deps.language(), day),
      });
    },
  };
}
