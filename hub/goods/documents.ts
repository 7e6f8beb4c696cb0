/**
 * The hub's goods documents on A4 (shared/node/a4.ts, the till's layout): the KEP book of a shop, a transfer
 * between shops and a stock-taking's list. Made at the hub (the manager's browser saves the file), in the language
 * asked for.
 */
import type { Language } from '../../shared/domain.ts';
import type { HubKepView, HubTransfer } from '../../shared/hub/goods-protocol.ts';
import { formatQuantity } from '../../shared/money.ts';
import { TRANSFER_WORDS } from '../../shared/i18n/goods.ts';
import { formatMoment } from '../../shared/i18n/time.ts';
import { interpolate } from '../../shared/i18n/catalog.ts';
import { a4Pdf, type ShopIdentity } from '../../shared/node/a4.ts';
import { kepA4 } from '../../shared/node/kep-a4.ts';
import { countA4 } from '../../shared/node/count-a4.ts';
import type { HubCountView } from '../../shared/hub/count-protocol.ts';
import { receiptA4, reorderA4, type ReceiptA4 } from '../../shared/node/goods-a4.ts';
import type { ReorderView } from '../../shared/contract/goods.ts';

export function hubKepPdf(view: HubKepView, shop: ShopIdentity, lang: Language, now: Date): Promise<Uint8Array> {
  return a4Pdf({ language: lang, shop, printedAt: now, ...kepA4(view, lang) });
}

/** A transfer: its two shops, when it left and arrived, each line sent and received with the difference. */
export function hubTransferPdf(t: HubTransfer, shop: ShopIdentity, lang: Language, now: Date): Promise<Uint8Array> {
  const w = TRANSFER_WORDS[lang];
  return a4Pdf({
    language: lang,
    shop,
    printedAt: now,
    title: interpolate(w.title, { number: t.number }),
    lines: [
      interpolate(w.from, { shop: t.fromShop }),
      interpolate(w.to, { shop: t.toShop }),
      interpolate(w.sent, { at: formatMoment(t.sentAt, lang) }),
      t.receivedAt
        ? interpolate(w.received, { at: formatMoment(t.receivedAt, lang), number: t.receivedNumber ?? '' })
        : w.notReceived,
    ],
    columns: w.header.map((header, i) => ({
      header,
      width: [0.5, 1, 3, 1, 1, 1][i] ?? 1,
      ...(i === 0 || i >= 3 ? { align: 'right' as const } : {}),
    })),
    rows: t.lines.map((l, i) => [
      String(i + 1),
      l.code,
      l.name,
      formatQuantity(l.sentMilli),
      l.receivedMilli === null ? '' : formatQuantity(l.receivedMilli),
      l.receivedMilli === null ? '' : formatQuantity(l.receivedMilli - l.sentMilli),
    ]),
    after: [w.signatures],
  });
}

/** A stock-taking's list (пописна листа): the till's page (shared/node/count-a4.ts) with the shop's title block. */
export function hubCountPdf(c: HubCountView, shop: ShopIdentity, lang: Language, now: Date): Promise<Uint8Array> {
  return a4Pdf({ language: lang, shop, printedAt: now, ...countA4(c, lang) });
}

/** A posted receipt or its reversal with its calculation (the till's layout). */
export function hubReceiptPdf(r: ReceiptA4, shop: ShopIdentity, lang: Language, now: Date): Promise<Uint8Array> {
  return a4Pdf({ language: lang, shop, printedAt: now, ...receiptA4(r, lang) });
}

/** The reorder list per supplier (the till's layout). */
export function hubReorderPdf(view: ReorderView, shop: ShopIdentity, lang: Language, now: Date): Promise<Uint8Array> {
  return a4Pdf({ language: lang, shop, printedAt: now, ...reorderA4(view, lang, now) });
}
