/**
 * The bookkeeper's exports of one shop at the hub (docs/exports.md, "At the hub"): one export over all the shop's
 * tills, with the till's own code. The orders of the period (every till's, as pushed) are read as the hub's report
 * reads them (`reportOrder`, hub/report-facts.ts) and summed per Belgrade day by the till's arithmetic
 * (shared/exports/days.ts; a closed day's sums as the day closer kept them, hub/export-sums.ts), so the hub's
 * turnover, documents and journal are the sum of its tills' to the para; the KEP is the hub's book of the shop
 * (hub/services/goods.ts), its goods receipts, price changes and goods out at purchase value the same book's
 * (hub/export-goods.ts). Reads only.
 */
import type { ExportView } from '../shared/contract/exports.ts';
import type { Language } from '../shared/domain.ts';
import type { KepEntry } from '../shared/contract/goods.ts';
import { kepPart, turnoverOf } from '../shared/exports/days.ts';
import { buildJournal, journalTotals } from '../shared/exports/journal.ts';
import type { AccountMap } from '../shared/exports/accounts.ts';
import { dayInstant, exportDaySums, nextDay } from './export-sums.ts';
import { DEFAULT_HUB_TIME_ZONE } from './report-days.ts';
import type { HubDb } from './db/db.ts';
import { hubExportGoods } from './export-goods.ts';
import { shopTaxRates } from './services/goods-register.ts';

const instant = (day: string): string => dayInstant(day, DEFAULT_HUB_TIME_ZONE);

/** The KEP of the period as the hub's book keeps it. */
export interface HubExportKep {
  openingPara: number;
  entries: KepEntry[];
  closingPara: number;
}

/** The shop's export of the Belgrade days `from` to `to`, both included. */
export async function hubExport(
  db: HubDb,
  input: { shopId: number; from: string; to: string; lang: Language; accounts: AccountMap; kep: HubExportKep },
): Promise<ExportView> {
  const { shopId, from, to, lang } = input;
  const range = { from: instant(from), to: instant(nextDay(to)) };
  // The days' sums (kept ones as the day closer keeps them, the others from their orders: hub/export-sums.ts) and
  // the goods, read in one snapshot, so a round of the closer that commits meanwhile is seen whole or not at all.
  const { byDay, rates, goods } = await db.tx(async (q) => {
    await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const sums = await exportDaySums(q, DEFAULT_HUB_TIME_ZONE, shopId, from, to);
    // The goods' VAT by the rates the shop's tills report, the receipts' own where the period has them.
    const goodsRates = new Map([
      ...(await shopTaxRates(q, shopId)).map((r) => [r.label, r.rate] as const),
      ...sums.rates,
    ]);
    return { ...sums, goods: await hubExportGoods(q, shopId, from, to, (label) => goodsRates.get(label) ?? 0) };
  });
  const days: { day: string; from: string; to: string }[] = [];
  for (let day = from; day <= to; day = nextDay(day)) days.push({ day, from: instant(day), to: instant(nextDay(day)) });
  const turnover = turnoverOf(days, byDay, (label) => rates.get(label), range);
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
