/**
 * The goods part of a shop's export at the hub (docs/exports.md, "At the hub"): read from the hub's book of the shop
 * (hub/goods/ledger.ts's tables) and put together by the till's own code (shared/exports/goods.ts, cost.ts): the
 * goods receipts and reversals of the period with their calculation's totals, the price changes (нивелације), and the
 * goods out at purchase value (the day's sales, each write-off and stock-taking) priced by each product's weighted
 * average purchase price, the book's movements costed in their order (kept by the day closer as far as it costed
 * them, the rest on from there: hub/export-sums.ts). Transfers between the chain's shops and
 * an opening stock are in the KEP but not posted (docs/exports.md). Reads only.
 */
import type { ExportGoodsReceipt } from '../shared/contract/exports.ts';
import type { PriceChangeView } from '../shared/contract/goods.ts';
import { valueAt } from '../shared/goods/calc.ts';
import { goodsOutOf } from '../shared/exports/cost.ts';
import { exportReceipts, journalPriceChanges } from '../shared/exports/goods.ts';
import type { JournalGoodsOut, JournalPriceChange } from '../shared/exports/journal.ts';
import type { Queryable } from './db/db.ts';
import { docNumber } from './goods/post.ts';
import { costedGoodsOut } from './export-sums.ts';

export interface HubExportGoods {
  goodsReceipts: ExportGoodsReceipt[];
  priceChanges: PriceChangeView[];
  journalPriceChanges: JournalPriceChange[];
  goodsOut: JournalGoodsOut[];
}

/** A priced line as a receipt's or reversal's document keeps it (hub/services/goods-receipts.ts). */
interface DocLine {
  qtyMilli: number;
  netPara: number;
}

/** The numbers of the shop's write-offs and stock-takings by their movements' source. */
async function numbers(db: Queryable, shopId: number): Promise<Map<string, string>> {
  const rows = await db.query<{ source: string; number: number; year: number }>(
    `SELECT 'writeoff:' || id AS source, number, year FROM hub_goods_docs WHERE shop_id = $1 AND kind = 'writeoff'
     UNION ALL SELECT 'count:' || id, number, year FROM hub_stock_counts WHERE shop_id = $1`,
    [shopId],
  );
  return new Map(rows.map((r) => [r.source, docNumber(r.number, r.year)]));
}

/** The receipts and reversals whose goods moved in the period, per tax label of their lines. */
async function receipts(db: Queryable, shopId: number, from: string, to: string, rateOf: (l: string) => number) {
  const rows = await db.query<{
    id: number;
    kind: 'receipt' | 'reversal';
    number: number;
    year: number;
    day: string;
    detail: { supplier?: string; pib?: string; invoiceNumber?: string; lines?: DocLine[] };
    label: string | null;
    v: number;
  }>(
    `SELECT d.id, d.kind, d.number, d.year, min(m.day) AS day, d.detail, p.label, sum(m.value_para)::int8 AS v
       FROM hub_stock_movements m
       JOIN hub_goods_docs d ON d.shop_id = m.shop_id AND m.source = d.kind || ':' || d.id
       LEFT JOIN products p ON p.shop_id = m.shop_id AND p.code = m.code
      WHERE m.shop_id = $1 AND m.kind IN ('receipt', 'reversal') AND m.day BETWEEN $2 AND $3
      GROUP BY d.id, p.label
      ORDER BY min(m.day), d.id`,
    [shopId, from, to],
  );
  return exportReceipts(
    rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      number: docNumber(r.number, r.year),
      day: r.day,
      supplier: r.detail.supplier ?? '',
      pib: r.detail.pib ?? '',
      invoiceNumber: r.detail.invoiceNumber ?? '',
      // The document's purchase value: Σ its lines' quantity × net purchase price (a reversal's lines are negative).
      purchasePara: (r.detail.lines ?? []).reduce((s, l) => s + valueAt(l.qtyMilli, l.netPara), 0),
      label: r.label ?? '',
      valuePara: Number(r.v),
    })),
    rateOf,
  );
}

/** The price change records (нивелације) of the period, in number order, and the labels of their products. */
async function priceChanges(db: Queryable, shopId: number, from: string, to: string) {
  const rows = await db.query<{
    id: number;
    number: number;
    year: number;
    at: string;
    value_para: number;
    detail: { code: string; name: string; oldPara: number; newPara: number; qtyMilli: number; source?: string };
    label: string | null;
  }>(
    `SELECT d.id, d.number, d.year, d.at, d.value_para, d.detail, p.label
       FROM hub_goods_docs d LEFT JOIN products p ON p.shop_id = d.shop_id AND p.code = d.detail->>'code'
      WHERE d.shop_id = $1 AND d.kind = 'price_change' AND d.day BETWEEN $2 AND $3
      ORDER BY d.year, d.number`,
    [shopId, from, to],
  );
  const views: PriceChangeView[] = rows.map((r) => ({
    id: r.id,
    number: docNumber(r.number, r.year),
    at: r.at,
    code: r.detail.code,
    name: r.detail.name,
    oldPara: Number(r.detail.oldPara),
    newPara: Number(r.detail.newPara),
    quantityMilli: Number(r.detail.qtyMilli),
    diffPara: Number(r.value_para),
    source: r.detail.source === 'receipt' || r.detail.source === 'catalog' ? r.detail.source : 'hub',
  }));
  return { views, labels: new Map(rows.map((r) => [r.detail.code, r.label ?? ''])) };
}

/** The goods part of the shop's export of the Belgrade days `from` to `to`, both included. */
export async function hubExportGoods(
  db: Queryable,
  shopId: number,
  from: string,
  to: string,
  rateOf: (label: string) => number,
): Promise<HubExportGoods> {
  const goodsReceipts = await receipts(db, shopId, from, to, rateOf);
  const prices = await priceChanges(db, shopId, from, to);
  const byNumber = await numbers(db, shopId);
  const goodsOut = goodsOutOf(await costedGoodsOut(db, shopId, from, to), from, (s) => byNumber.get(s), rateOf);
  return {
    goodsReceipts,
    priceChanges: prices.views,
    journalPriceChanges: journalPriceChanges(prices.views, (code) => prices.labels.get(code), rateOf),
    goodsOut,
  };
}
