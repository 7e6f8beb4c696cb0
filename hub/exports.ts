/**
 * The bookkeeper's exports of one shop at the hub (docs/exports.md, "At the hub"): one export over all the shop's
 * tills, with the till's own code. The orders of the period (every till's, as pushed) are read as the hub's report
 * reads them (`reportOrder`, hub/report-facts.ts) and summed per Belgrade day by the till's arithmetic
 * (shared/exports/days.ts), so the hub's turnover, documents and journal are the sum of its tills' to the para; the
 * KEP is the hub's book of the shop (hub/services/goods.ts), its goods receipts, price changes and goods out at
 * purchase value the same book's (hub/export-goods.ts). Reads only.
 */
import type { ExportView } from '../shared/contract/exports.ts';
import type { Language, OrderKind } from '../shared/domain.ts';
import type { OrderData } from '../shared/reports/totals.ts';
import type { KepEntry } from '../shared/contract/goods.ts';
import { addToDay, emptyDay, kepPart, turnoverOf, type DayTotals } from '../shared/exports/days.ts';
import { buildJournal, journalTotals } from '../shared/exports/journal.ts';
import type { AccountMap } from '../shared/exports/accounts.ts';
import { dayIn, dayStart } from '../shared/i18n/time.ts';
import { reportOrder } from './report-facts.ts';
import { DEFAULT_HUB_TIME_ZONE } from './report-days.ts';
import type { Queryable } from './db/db.ts';
import { hubExportGoods } from './export-goods.ts';
import { shopTaxRates } from './services/goods-register.ts';

interface Row {
  created_at: string | Date;
  invoice_number: string | null;
  kind: OrderKind;
  invoice_type: string;
  state: string;
  total_para: number | string;
  data: OrderData;
  receipt: { taxItems?: { label?: unknown; rate?: unknown }[] | null } | null;
  extra_receipts: { taxItems?: { label?: unknown; rate?: unknown }[] | null }[] | null;
  cashier: string;
  till: string;
}

/** The day after a YYYY-MM-DD day. */
const nextDay = (day: string): string => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
};
const instant = (day: string): string => new Date(dayStart(day, DEFAULT_HUB_TIME_ZONE)).toISOString();

/** The KEP of the period as the hub's book keeps it. */
export interface HubExportKep {
  openingPara: number;
  entries: KepEntry[];
  closingPara: number;
}

/** The shop's export of the Belgrade days `from` to `to`, both included. */
export async function hubExport(
  db: Queryable,
  input: { shopId: number; from: string; to: string; lang: Language; accounts: AccountMap; kep: HubExportKep },
): Promise<ExportView> {
  const { shopId, from, to, lang } = input;
  const range = { from: instant(from), to: instant(nextDay(to)) };
  const rows = await db.query<Row>(
    `SELECT o.created_at, o.invoice_number, o.kind, o.invoice_type, o.state, o.total_para, o.data, o.receipt,
            o.extra_receipts, coalesce(o.cashier, '') AS cashier, t.name AS till
       FROM orders o JOIN tills t ON t.id = o.till_id
      WHERE o.shop_id = $1 AND o.created_at >= $2 AND o.created_at < $3
      ORDER BY o.created_at, o.till_id, o.seq`,
    [shopId, range.from, range.to],
  );
  const byDay = new Map<string, DayTotals>();
  // The rates the receipts state (the hub needs no gateway): the last one of the period per label.
  const rates = new Map<string, number>();
  for (const r of rows) {
    const at = new Date(r.created_at).toISOString();
    const day = dayIn(new Date(at), DEFAULT_HUB_TIME_ZONE);
    let d = byDay.get(day);
    if (!d) byDay.set(day, (d = emptyDay()));
    const order = reportOrder({ ...r, total_para: Number(r.total_para) });
    addToDay(d, order, { at, invoiceNumber: r.invoice_number, cashier: r.cashier, till: r.till });
    for (const receipt of [r.receipt, ...(r.extra_receipts ?? [])])
      for (const t of receipt?.taxItems ?? [])
        if (typeof t.label === 'string' && typeof t.rate === 'number') rates.set(t.label, t.rate);
  }
  const days: { day: string; from: string; to: string }[] = [];
  for (let day = from; day <= to; day = nextDay(day)) days.push({ day, from: instant(day), to: instant(nextDay(day)) });
  const turnover = turnoverOf(days, byDay, (label) => rates.get(label), range);
  // The goods' VAT by the rates the shop's tills report, the receipts' own where the period has them.
  const goodsRates = new Map([...(await shopTaxRates(db, shopId)).map((r) => [r.label, r.rate] as const), ...rates]);
  const goods = await hubExportGoods(db, shopId, from, to, (label) => goodsRates.get(label) ?? 0);
  const journal = buildJournal(
    {
      days: turnover.journalDays,
      receipts: goods.goodsReceipts,
      priceChanges: goods.journalPriceChanges,
      goodsOut: goods.goodsOut,
    },
    input.accounts,
    lang,
  );
  const k = input.kep;
  return {
    from,
    to,
    days: turnover.days,
    total: turnover.total,
    documents: turnover.documents,
    goodsReceipts: goods.goodsReceipts,
    priceChanges: goods.priceChanges,
    kep: kepPart(k),
    stockValuePara: k.closingPara,
    journal,
    journalTotals: journalTotals(journal),
  };
}
