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
import { GOODS_DOC_WORDS } from '../../shared/i18n/goods.ts';
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

  return {
    async kep(from: string, to: string): Promise<PdfFile> {
      return pdfFile(`KEP-${from}-${to}.pdf`, { ...base(), ...kepA4(goods.kep(from, to, false), deps.language()) });
    },

    async receipt(id: number): Promise<PdfFile> {
      const r = goods.receipt(id);
      return pdfFile(`kalkulacija-${fileNumber(r.number)}.pdf`, { ...base(), ...receiptA4(r, deps.language()) });
    },

    async priceChange(id: number): Promise<PdfFile> {
      const lang = deps.language();
      const w = GOODS_DOC_WORDS[lang];
      const p = goods.priceChange(id);
      if (!p) throw new CommandError('not_found', 'goods_document_not_found', { id });
      const number = p.number;
      const widths = [1, 3, 1, 1.1, 1.1, 1.1, 1.3];
      return pdfFile(`nivelacija-${fileNumber(number)}.pdf`, {
        ...base(),
        title: interpolate(w.priceChangeTitle, { number }),
        lines: [interpolate(w.date, { date: formatMoment(p.at, lang) })],
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
        after: [w.signatures],
      });
    },

    async writeOff(id: number): Promise<PdfFile> {
      const lang = deps.language();
      const w = GOODS_DOC_WORDS[lang];
      const o = goods.writeOffById(id);
      if (!o) throw new CommandError('not_found', 'goods_document_not_found', { id });
      const number = o.number;
      return pdfFile(`otpis-${fileNumber(number)}.pdf`, {
        ...base(),
        title: interpolate(w.writeOffTitle, { number }),
        lines: [interpolate(w.date, { date: formatMoment(o.at, lang) }), interpolate(w.reason, { reason: o.reason })],
        columns: [
          { header: w.code, width: 1 },
          { header: w.name, width: 3 },
          { header: w.quantity, width: 1, align: 'right' },
          { header: w.unitPrice, width: 1.1, align: 'right' },
          { header: w.value, width: 1.3, align: 'right' },
        ],
        rows: [[o.code, o.name, formatQuantity(o.quantityMilli), formatRsd(o.pricePara), formatRsd(o.valuePara)]],
        totals: [[w.total, '', '', '', formatRsd(o.valuePara)]],
        after: [w.signatures],
      });
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
