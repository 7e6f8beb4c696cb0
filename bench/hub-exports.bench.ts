/**
 * hub-exports: the bookkeeper's export of one shop at the hub (issue 41, "Speed and load": a year under 2 s with
 * 1,000,000 orders), on a real PostgreSQL 15 started here (fsync on). One shop of 10 tills with
 * KASA_BENCH_HUB_ORDERS orders (default 1,000,000) over the year up to the bench's "now" (bench/hub-orders.ts: one
 * or two tax labels, cash and card, 2 % refunds, 1 % advances), closed by the day closer as a running hub closes
 * them; the hub's book of the shop's goods: 5,000 products, 3,000 goods receipts through the service over the year
 * (every other one at a new retail price: a price change record), and 300,000 sale movements with the day's KEP
 * sums (written in bulk by SQL, as the push writes them).
 *
 * Figures: the median of 3 warm runs of what the export's screen and files do (hub/routes/exports.ts: the shop's
 * accounts, its KEP, the export's view, then the journal, Minimax and goods CSV files) for the year (limit 2 s) and
 * for October (a closed month, the bookkeeper's usual ask; same limit). Building and closing are reported (no limit).
 */
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../hub/db/db.ts';
import { createHubService } from '../hub/service.ts';
import { hubExport } from '../hub/exports.ts';
import { exportFile } from '../shared/node/export-files.ts';
import { postgresAvailable, startPostgres } from '../test/support/postgres.ts';
import { benchLine, percentile } from './format.ts';
import { buildOrders, DAY_MS, type BenchTill } from './hub-orders.ts';

const ORDERS = Number(process.env.KASA_BENCH_HUB_ORDERS ?? 1_000_000);
const TILLS = 10;
const PRODUCTS = 5_000;
const RECEIPTS = 3_000;
const SALE_MOVES = 300_000;
const LIMIT_MS = 2_000;
/** The bench's "now": 12:00 in Belgrade on 25 November 2026 (UTC+1), and Belgrade's midnight of that day. */
const NOW = Date.UTC(2026, 10, 25, 11, 0, 0);
const TODAY = Date.UTC(2026, 10, 24, 23, 0, 0);
const FIRST = new Date(TODAY - 364 * DAY_MS + 12 * 3600_000).toISOString().slice(0, 10);
const LAST = new Date(NOW).toISOString().slice(0, 10);

if (!postgresAvailable()) {
  console.error('hub-exports needs PostgreSQL 15 (apt-get install -y postgresql)');
  process.exit(1);
}

const log = (l: string): void => void process.stderr.write(`hub-exports: ${l}\n`);

const cluster = await startPostgres({ durable: true });
try {
  const db = await openPostgres(cluster.url);
  let clock = NOW;
  const service = createHubService(db, { now: () => new Date(clock), timeZone: 'Europe/Belgrade' });
  const shopId = await service.ensureDefaultShop('Продавница 1');
  const tills: BenchTill[] = [];
  for (let t = 0; t < TILLS; t++) {
    const name = `К${t + 1}`;
    const r = await service.enrol(await service.newEnrolCode(shopId), name);
    tills.push({ id: r.tillId, shopId, name, n: 0, seq: 0 });
  }
  const t0 = performance.now();
  const built = await buildOrders(db, tills, {
    orders: ORDERS,
    days: 365,
    today: TODAY,
    now: NOW,
    advances: true,
    log,
  });
  console.log(benchLine('hub-exports', `build_${built}_orders_s`, (performance.now() - t0) / 1000, 600, 's'));

  // --- the shop's goods book: products, receipts over the year (through the service), the sales' movements ---
  const g0 = performance.now();
  await db.query(
    `INSERT INTO products (shop_id, code, name, price_para, label, unit, barcodes, version)
     SELECT $1, 'P' || i, 'Артикал ' || i, 5000 + (i % 200) * 100, CASE WHEN i % 2 = 0 THEN 'Ђ' ELSE 'Е' END,
            'piece', '[]', nextval('change_seq')
       FROM generate_series(1, ${PRODUCTS}) i`,
    [shopId],
  );
  for (let r = 0; r < RECEIPTS; r++) {
    clock = TODAY - Math.floor(((RECEIPTS - r) / RECEIPTS) * 364) * DAY_MS + 8 * 3600_000;
    const p = (r * 7) % PRODUCTS;
    await service.postReceipt(
      shopId,
      {
        supplier: `Добављач ${r % 20}`,
        pib: '101134702',
        invoiceNumber: `R-${r}`,
        invoiceDate: new Date(clock).toISOString().slice(0, 10),
        lines: [0, 1, 2].map((k) => ({
          code: `P${((p + k * 1_700) % PRODUCTS) + 1}`,
          qtyMilli: 200_000,
          purchasePara: 3_000 + ((p + k) % 100) * 10,
          // Every other receipt prices its goods anew: a price change record for the goods on hand.
          ...(r % 2 ? { pricePara: 5_000 + ((p + k * 1_700 + r) % 200) * 100 } : {}),
        })),
      },
      'Менаџер',
    );
  }
  clock = NOW;
  // The sales' movements, as the push records them, over the year's days (the book's order after the receipts).
  await db.query(
    `INSERT INTO hub_stock_movements (shop_id, code, at, day, kind, source, line, qty_milli, price_para, value_para)
     SELECT $1, 'P' || c, d || 'T10:00:00.000Z', d, CASE WHEN s % 50 = 0 THEN 'refund' ELSE 'sale' END,
            'order:' || $2 || ':S-' || s, 0, q, p.price_para, q * p.price_para / 1000
       FROM generate_series(1, ${SALE_MOVES}) s,
            LATERAL (SELECT to_char(date '${FIRST}' + (s % 364), 'YYYY-MM-DD') AS d, (s * 13) % ${PRODUCTS} + 1 AS c,
                            CASE WHEN s % 50 = 0 THEN 1000 ELSE -1000 * (s % 3 + 1) END AS q) x
       JOIN products p ON p.shop_id = $1 AND p.code = 'P' || c`,
    [shopId, tills[0]?.id],
  );
  await db.query(
    `UPDATE hub_stock st SET qty_milli = st.qty_milli + m.q FROM (
       SELECT code, sum(qty_milli) AS q FROM hub_stock_movements WHERE shop_id = $1 AND kind IN ('sale', 'refund')
        GROUP BY code) m
      WHERE st.shop_id = $1 AND st.code = m.code`,
    [shopId],
  );
  await db.query(
    `INSERT INTO hub_kep_days (shop_id, day, value_para, sold_value_para)
     SELECT $1, day, sum(value_para), sum(value_para) FROM hub_stock_movements WHERE shop_id = $1
        AND kind IN ('sale', 'refund') GROUP BY day
     ON CONFLICT (shop_id, day) DO UPDATE SET value_para = hub_kep_days.value_para + excluded.value_para,
        sold_value_para = hub_kep_days.sold_value_para + excluded.sold_value_para`,
    [shopId],
  );
  await db.query(
    `INSERT INTO hub_kep_turnover (shop_id, day, payment_type, amount_para)
     SELECT $1, day, 'cash', sold_value_para FROM hub_kep_days WHERE shop_id = $1 AND sold_value_para <> 0`,
    [shopId],
  );
  await db.query('ANALYZE');
  log(`goods built in ${Math.round((performance.now() - g0) / 1000)} s`);

  const c0 = performance.now();
  const closed = await service.closeDays(NOW);
  await db.query('ANALYZE');
  console.log(benchLine('hub-exports', `close_${closed.closed}_days_s`, (performance.now() - c0) / 1000, 600, 's'));

  const lang = 'sr-Cyrl' as const;
  const identity = await service.shopIdentity(shopId);
  /** What the export's route does for the period: the view, then the journal, Minimax and goods files. */
  const exportOnce = async (from: string, to: string) => {
    const { accounts } = await service.exportAccounts(shopId);
    const kep = await service.kep(shopId, from, to, lang);
    const view = await hubExport(db, { shopId, from, to, lang, accounts, kep });
    const deps = { language: () => lang, accounts: () => accounts, shop: () => identity, now: () => new Date(NOW) };
    for (const kind of ['journal', 'minimax', 'goods'] as const) await exportFile(view, kind, deps);
    if (view.journalTotals.debitPara !== view.journalTotals.creditPara) throw new Error('the journal does not balance');
    return view;
  };
  const timed = async (name: string, from: string, to: string): Promise<void> => {
    const times: number[] = [];
    for (let r = 0; r <= 3; r++) {
      const s = performance.now();
      const view = await exportOnce(from, to);
      const ms = performance.now() - s;
      if (r > 0) times.push(ms); // the first is a warm-up
      log(`${name} run ${r}: ${Math.round(ms)} ms, ${view.days.length} days, ${view.total.sales.count} sales`);
    }
    console.log(benchLine('hub-exports', `${name}_median`, percentile(times, 50), LIMIT_MS, 'ms'));
  };
  await timed('year_1m_orders', FIRST, LAST);
  await timed('month_1m_orders', '2026-10-01', '2026-10-31');
  await db.close();
} finally {
  cluster.stop();
}
