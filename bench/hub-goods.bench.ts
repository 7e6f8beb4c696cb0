/**
 * hub-goods: the goods at a chain's hub (docs/goods.md "At the hub"), on a real PostgreSQL 15 started here (fsync
 * on). One shop with KASA_BENCH_HUB_ORDERS fiscalized orders (default 1,000,000) over a year, each a sale (2 % refunds)
 * of one to three of its 5,000 products, with the rows the push writes for them (hub/goods/ledger.ts: the sale's row,
 * its movements, the day's sums and turnover by payment type), written in bulk by SQL; 2,000 goods receipts and 500
 * write-offs through the service itself; 19 more shops with stock of the same 5,000 products.
 *
 * Figures (limits from issue 40): a shop's KEP for the year ≤ 1 s; the chain's stock value by shop ≤ 1 s (each the
 * median of 3, warm). The KEP's closing balance is checked against Σ stock × retail price before it is timed.
 */
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../hub/db/db.ts';
import { createHubService } from '../hub/service.ts';
import { postgresAvailable, startPostgres } from '../test/support/postgres.ts';
import { benchLine } from './format.ts';

const ORDERS = Number(process.env.KASA_BENCH_HUB_ORDERS ?? 1_000_000);
const SHOPS = 20;
const PRODUCTS = 5_000;
const NOW = Date.UTC(2026, 11, 31, 11, 0, 0);

if (!postgresAvailable()) {
  console.error('hub-goods needs PostgreSQL 15 (apt-get install -y postgresql)');
  process.exit(1);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

const cluster = await startPostgres({ durable: true });
try {
  const db = await openPostgres(cluster.url);
  const service = createHubService(db, { now: () => new Date(NOW) });
  const shops = [await service.ensureDefaultShop('Продавница 1')];
  for (let s = 1; s < SHOPS; s++) shops.push(await service.createShop(`Продавница ${s + 1}`));
  const till = await service.enrol(await service.newEnrolCode(shops[0] as number), 'Каса 1');
  const built = performance.now();
  for (const shopId of shops)
    await db.query(
      `INSERT INTO products (shop_id, code, name, price_para, label, unit, barcodes, version)
       SELECT $1, 'P' || i, 'Артикал ' || i, 5000 + (i % 200) * 100, 'Ђ', 'piece', '[]', nextval('change_seq')
         FROM generate_series(1, ${PRODUCTS}) i`,
      [shopId],
    );
  // The year's sales of shop 1, as the push records them: whole units, so each movement's value is q × p exactly.
  const days = `to_char(date '2026-01-01' + (o % 365), 'YYYY-MM-DD')`;
  await db.query(
    `INSERT INTO hub_stock_sales (till_id, order_number, shop_id, day, at, invoice_number, turnover_para, payments)
     SELECT $1, 'O-' || o, $2, ${days}, ${days} || 'T10:00:00.000Z', 'INV-' || o,
            CASE WHEN o % 50 = 0 THEN 1 ELSE -1 END * -(o % 3 + 1) * (5000 + ((o * 7) % ${PRODUCTS} % 200) * 100),
            '[]'::jsonb
       FROM generate_series(1, ${ORDERS}) o`,
    [till.tillId, shops[0]],
  );
  await db.query(
    `INSERT INTO hub_stock_movements (shop_id, code, at, day, kind, source, line, qty_milli, price_para, value_para)
     SELECT $1, 'P' || ((o * 7) % ${PRODUCTS} + 1), ${days} || 'T10:00:00.000Z', ${days},
            CASE WHEN o % 50 = 0 THEN 'refund' ELSE 'sale' END, 'order:' || $2 || ':O-' || o, 0,
            CASE WHEN o % 50 = 0 THEN 1 ELSE -1 END * (o % 3 + 1) * 1000, 5000 + (((o * 7) % ${PRODUCTS} + 1) % 200) * 100,
            CASE WHEN o % 50 = 0 THEN 1 ELSE -1 END * (o % 3 + 1) * (5000 + (((o * 7) % ${PRODUCTS} + 1) % 200) * 100)
       FROM generate_series(1, ${ORDERS}) o`,
    [shops[0], till.tillId],
  );
  // The turnover is the goods' value (no discounts), paid in cash and by card half and half.
  await db.query(
    `INSERT INTO hub_kep_days (shop_id, day, value_para, sold_value_para)
     SELECT shop_id, day, sum(value_para), sum(value_para) FROM hub_stock_movements WHERE shop_id = $1 GROUP BY shop_id, day`,
    [shops[0]],
  );
  await db.query(
    `INSERT INTO hub_kep_turnover (shop_id, day, payment_type, amount_para)
     SELECT shop_id, day, t.type, CASE WHEN t.type = 'cash' THEN -sold_value_para / 2 ELSE -sold_value_para + sold_value_para / 2 END
       FROM hub_kep_days, (VALUES ('cash'), ('card')) t(type) WHERE shop_id = $1`,
    [shops[0]],
  );
  await db.query(
    `INSERT INTO hub_stock (shop_id, code, name, qty_milli, price_para, updated_at)
     SELECT m.shop_id, m.code, p.name, sum(m.qty_milli), p.price_para, '2026-12-31T10:00:00.000Z'
       FROM hub_stock_movements m JOIN products p ON p.shop_id = m.shop_id AND p.code = m.code
      WHERE m.shop_id = $1 GROUP BY m.shop_id, m.code, p.name, p.price_para`,
    [shops[0]],
  );
  // Goods receipts and write-offs through the service (numbered documents, movements, the day's sums).
  for (let r = 0; r < 2_000; r++)
    await service.postReceipt(
      shops[0] as number,
      {
        supplier: 'Добављач',
        pib: '101134702',
        invoiceNumber: `R-${r}`,
        invoiceDate: '2026-12-31',
        lines: [{ code: `P${(r % PRODUCTS) + 1}`, qtyMilli: 500_000, purchasePara: 1_000 }],
      },
      'Менаџер',
    );
  for (let w = 0; w < 500; w++)
    await service.writeOff(shops[0] as number, { code: `P${w + 1}`, qtyMilli: 1_000, reason: 'Лом' }, 'Менаџер');
  for (const shopId of shops.slice(1))
    await db.query(
      `INSERT INTO hub_stock (shop_id, code, name, qty_milli, price_para, purchase_para, updated_at)
       SELECT shop_id, code, name, 100000 + (length(code) * 1000), price_para, price_para / 2, '2026-12-31T10:00:00.000Z'
         FROM products WHERE shop_id = $1`,
      [shopId],
    );
  await db.query('ANALYZE');
  process.stderr.write(`hub-goods: built in ${Math.round(performance.now() - built)} ms\n`);

  const kep = await service.kep(shops[0] as number, '2026-01-01', '2026-12-31', 'sr-Cyrl');
  if (kep.closingPara !== kep.stockValuePara)
    throw new Error(`KEP ${kep.closingPara} ≠ stock value ${kep.stockValuePara}`);
  process.stderr.write(`hub-goods: KEP of the year, ${kep.entries.length} entries\n`);
  const kepMs = await timed(() => service.kep(shops[0] as number, '2026-01-01', '2026-12-31', 'sr-Cyrl'));
  console.log(benchLine('hub-goods', 'kep_year_1m_orders', kepMs, 1000, 'ms'));
  const chain = await service.stock(null);
  if (chain.byShop.length !== SHOPS) throw new Error('the chain has not every shop');
  const chainMs = await timed(() => service.stock(null));
  console.log(benchLine('hub-goods', 'chain_stock_value', chainMs, 1000, 'ms'));
  await db.close();
} finally {
  cluster.stop();
}
