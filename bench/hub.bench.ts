/**
 * hub: the store hub at the scale, on the embedded PGlite and on a real PostgreSQL 15 (fsync on),
 * side by side. Per backend:
 *
 * 1. Shop load (`shop_*`): BENCH_TILLS simulated tills (default 200; the till's own HTTP client on
 *    loopback) each make 10 sales a minute and, like the till's sync loop, push what they made since the
 *    last push once per (compressed) second, for BENCH_HUB_MINUTES shop minutes (default 0.5: 1,000
 *    sales). Time is compressed by BENCH_HUB_SPEEDUP (default 1: real time, 200 tills offer 33 orders/s
 *    in about 33 pushes/s; with 10 one shop minute runs in 6 s, the load of 2,000 tills). Figures: the rate
 *    the hub kept up with (orders/s, limit: the offered rate), the p99 of one push (limit 1 s) and the p99
 *    lag from a sale to the hub's acknowledgement, in real ms (limit 5 s).
 * 2. Saturation (`ingest_max`): 8 tills pushing batches of 50 as fast as the hub acknowledges: the most
 *    orders/s the backend takes. Divided by 10/60 it is the number of 10-sales-a-minute tills it carries.
 * 3. Catalog: a 100,000-product push at the hub (`catalog_write`, limit 30 s), the whole catalog pulled by
 *    BENCH_HUB_CATALOG_TILLS tills at once (default 10; `catalog_full_propagation`, limit 30 s), then one
 *    price change seen by all BENCH_TILLS tills polling every second (`catalog_propagation`, limit 5 s).
 * 4. `new_till_ready`: a real till (createCore, SQLite file, sandbox gateway) enrolled into the shop with
 *    the 100,000 products, from start to the moment a scan finds the shop's last product (limit 30 s).
 *
 * The run fails unless the hub holds every order exactly once with no gap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../electron/core.ts';
import { HubClient } from '../electron/hub-client/client.ts';
import { startSandbox } from '../electron/sandbox/server.ts';
import { openPglite, openPostgres, type HubDb } from '../hub/db/db.ts';
import type { HubEvent, OrderSnapshot, ProductInput } from '../shared/hub/protocol.ts';
import { startHubServer } from '../hub/server.ts';
import { createHubService, type HubService } from '../hub/service.ts';
import type { HubStatusView } from '../shared/contract/hub.ts';
import type { Result } from '../shared/contract/index.ts';
import { MANAGER_PIN } from '../test/support/session.ts';
import { postgresAvailable, startPostgres } from '../test/support/postgres.ts';
import { benchLine, percentile } from './format.ts';

const TILLS = Number(process.env.BENCH_TILLS ?? 200);
const SPEEDUP = Number(process.env.BENCH_HUB_SPEEDUP ?? 1);
const MINUTES = Number(process.env.BENCH_HUB_MINUTES ?? 0.5);
const CATALOG = Number(process.env.BENCH_HUB_CATALOG ?? 100_000);
const CATALOG_TILLS = Math.min(TILLS, Number(process.env.BENCH_HUB_CATALOG_TILLS ?? 10));
const SALES_PER_MINUTE = 10;
const SAT_TILLS = 8;
const SAT_BATCHES = 10;
const BATCH = 50;
const POLL_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A pull as the till's sync loop does it: a request that fails (a reset keep-alive socket, a timeout) is
 * made again on the next round, up to 5 times.
 */
async function again<V>(fn: () => Promise<V>): Promise<V> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 5) throw err;
      await sleep(100);
    }
  }
}
const quiet = { info() {}, warn() {}, error() {}, redact() {} } as unknown as Core['logger'];

const order = (till: string, n: number): OrderSnapshot => ({
  order_number: `${till}-20261123-${n}`,
  kind: 'sale',
  invoice_type: 'normal',
  transaction_type: 'sale',
  state: 'fiscalized',
  created_at: new Date(Date.UTC(2026, 10, 23, 8, 0, 0, n)).toISOString(),
  total_para: 10_000 + n,
  data: {
    lines: [{ name: 'Хлеб', quantityMilli: 1000, unitPricePara: 10_000 + n, totalPara: 10_000 + n, labels: ['A'] }],
    payments: [{ type: 'cash', amountPara: 10_000 + n }],
    cashier: `Касир ${till}`,
  },
  invoice_number: `INV${till}-${n}`,
  sdc_date_time: '2026-11-23T08:00:00.000+01:00',
  receipt: { taxItems: [{ label: 'A', rate: 20, amount: 0, categoryType: 0, categoryName: 'ПДВ' }] },
});
const event = (till: string, seq: number): HubEvent => ({
  seq,
  kind: 'order',
  ref: `${till}-${seq}`,
  payload: order(till, seq),
});

const product = (i: number): ProductInput => ({
  code: `P${String(i).padStart(6, '0')}`,
  name: `Артикал ${i}`,
  pricePara: 1_000 + (i % 50_000),
  label: 'A',
  unit: 'piece',
  group: `Група ${i % 40}`,
  barcodes: [`860${String(i).padStart(10, '0')}`],
});

interface SimTill {
  client: HubClient;
  tillId: number;
  name: string;
}

async function enrolTills(
  service: HubService,
  url: string,
  shopId: number,
  n: number,
  prefix: string,
): Promise<SimTill[]> {
  const tills: SimTill[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${prefix}${i}`;
    const r = await new HubClient({ baseUrl: url }).enrol(await service.newEnrolCode(shopId), name);
    tills.push({ client: new HubClient({ baseUrl: url, credential: r.credential }), tillId: r.tillId, name });
  }
  return tills;
}

/** Phase 1: the shop's day, compressed. Returns the number of orders pushed. */
async function shopLoad(name: string, tills: SimTill[]): Promise<number> {
  const saleEvery = 60_000 / SALES_PER_MINUTE / SPEEDUP; // real ms between two sales of one till
  const tick = 1000 / SPEEDUP; // the till's 1 s sync interval, compressed
  const duration = (MINUTES * 60_000) / SPEEDUP;
  const latencies: number[] = [];
  const lags: number[] = [];
  const t0 = performance.now();
  let total = 0;
  let failures = 0;
  await Promise.all(
    tills.map(async (t, i) => {
      const phase = (i / tills.length) * saleEvery; // tills sell at different moments
      const sales = Math.floor((duration - phase) / saleEvery) + 1; // this till's sales in the run
      let made = 0;
      let acked = 0;
      for (;;) {
        const now = performance.now() - t0;
        made = Math.min(sales, Math.max(made, Math.floor((now - phase) / saleEvery) + 1));
        if (made > acked) {
          const events = Array.from({ length: Math.min(made - acked, 500) }, (_, k) => event(t.name, acked + k + 1));
          const s = performance.now();
          try {
            const res = await t.client.push(t.tillId, events);
            const e = performance.now();
            latencies.push(e - s);
            for (const ev of events) lags.push(e - t0 - (phase + (ev.seq - 1) * saleEvery));
            acked = res.acked;
          } catch {
            // A push the hub did not answer in the till's 10 s: the till sends the same batch again
            // (acknowledged as a duplicate if it was stored after all), as the till's sync loop does.
            failures++;
            latencies.push(performance.now() - s);
          }
        }
        if (acked >= sales) break;
        await sleep(tick);
      }
      total += acked;
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const offered = (tills.length * SALES_PER_MINUTE * SPEEDUP) / 60;
  process.stderr.write(
    `hub ${name}: shop load, ${total} orders from ${tills.length} tills in ${seconds.toFixed(1)} s (offered ${offered.toFixed(0)}/s, ${latencies.length} pushes, ${failures} retried)\n`,
  );
  console.log(
    benchLine(`hub_${name}`, `shop_ingest_${tills.length}_tills_x${SPEEDUP}`, total / seconds, offered, 'orders/s'),
  );
  console.log(benchLine(`hub_${name}`, 'shop_push_p99', percentile(latencies, 99), 1000, 'ms'));
  console.log(benchLine(`hub_${name}`, 'shop_sale_to_hub_p99', percentile(lags, 99), 5000, 'ms'));
  // Pushes that timed out and were sent again (limit: one in a thousand).
  console.log(benchLine(`hub_${name}`, 'shop_push_retries', failures, Math.max(1, latencies.length / 1000), ''));
  return total;
}

/** Phase 2: batches of 50 as fast as the hub takes them. */
async function saturation(name: string, tills: SimTill[]): Promise<number> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    tills.map(async (t) => {
      for (let b = 0; b < SAT_BATCHES; b++) {
        const events = Array.from({ length: BATCH }, (_, k) => event(t.name, b * BATCH + k + 1));
        const s = performance.now();
        const res = await t.client.push(t.tillId, events);
        latencies.push(performance.now() - s);
        if (res.acked !== (b + 1) * BATCH) throw new Error(`${t.name}: acked ${res.acked} after batch ${b}`);
      }
    }),
  );
  const total = tills.length * SAT_BATCHES * BATCH;
  const rate = total / ((performance.now() - t0) / 1000);
  console.log(benchLine(`hub_${name}`, 'ingest_max', rate, 100, 'orders/s'));
  console.log(benchLine(`hub_${name}`, 'ingest_max_push_p99', percentile(latencies, 99), 1000, 'ms'));
  process.stderr.write(
    `hub ${name}: ${Math.floor(rate)} orders/s in batches of ${BATCH} (a ceiling: tills that push each sale alone cost one transaction per push, see the shop load with BENCH_HUB_SPEEDUP)\n`,
  );
  return total;
}

/** Phase 3: the 100,000-product catalog. Returns the cursor after it. */
async function catalog(name: string, service: HubService, shopId: number, tills: SimTill[]): Promise<number> {
  const products = Array.from({ length: CATALOG }, (_, i) => product(i + 1));
  const w0 = performance.now();
  await service.upsertProducts(shopId, products);
  console.log(benchLine(`hub_${name}`, `catalog_write_${CATALOG}`, performance.now() - w0, 30_000, 'ms'));

  const p0 = performance.now();
  const cursors = await Promise.all(
    tills.slice(0, CATALOG_TILLS).map(async (t) => {
      let cursor = 0;
      let seen = 0;
      for (;;) {
        const c = await again(() => t.client.changes(cursor));
        seen += c.products.length;
        cursor = c.cursor;
        if (!c.more) break;
      }
      if (seen < CATALOG) throw new Error(`${t.name}: pulled ${seen} of ${CATALOG} products`);
      return cursor;
    }),
  );
  console.log(
    benchLine(`hub_${name}`, `catalog_full_propagation_${CATALOG_TILLS}_tills`, performance.now() - p0, 30_000, 'ms'),
  );
  const top = Math.max(...cursors);

  // One price change, every till (all BENCH_TILLS, at the catalog's cursor) polling every second.
  const c0 = performance.now();
  await service.upsertProducts(shopId, [{ ...product(1), pricePara: 15_900 }]);
  const seen = await Promise.all(
    tills.map(async (t, i) => {
      await sleep((i * POLL_MS) / tills.length); // each till's poll at its own phase of the second
      for (;;) {
        const c = await again(() => t.client.changes(top));
        if (c.products.some((p) => p.code === product(1).code && p.pricePara === 15_900)) return performance.now() - c0;
        await sleep(POLL_MS);
      }
    }),
  );
  console.log(benchLine(`hub_${name}`, `catalog_propagation_${tills.length}_tills`, Math.max(...seen), 5000, 'ms'));
  return top;
}

async function ok<V>(core: Core, command: string, input: unknown = {}): Promise<V> {
  const r = (await core.dispatch(command, input)) as Result<V>;
  if (!r.ok) throw new Error(`${command}: ${JSON.stringify(r.error)}`);
  return r.value;
}

/** Phase 4: a new real till enrolled into the shop is ready to sell. */
async function newTill(
  name: string,
  service: HubService,
  url: string,
  shopId: number,
  gatewayUrl: string,
  top: number,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-hub-till-'));
  const code = await service.newEnrolCode(shopId);
  const last = product(CATALOG);
  const t0 = performance.now();
  const core = await createCore({
    dataDir: dir,
    transport: 'host',
    logger: quiet,
    env: {
      KASA_LANG: 'en',
      KASA_TERMINAL_ID: 'NEWTILL',
      KASA_GATEWAY_URL: gatewayUrl,
      KASA_API_KEY: 'demo-key',
      KASA_HUB_URL: url,
      KASA_HUB_ENROL_CODE: code,
    },
  });
  try {
    await ok(core, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await ok(core, 'staff.login', { pin: MANAGER_PIN });
    while ((await ok<HubStatusView>(core, 'hub.status')).cursor < top) await sleep(20);
    const found = await ok<{ product?: { code: string } | null }>(core, 'catalog.byBarcode', {
      code: last.barcodes?.[0],
    });
    if (JSON.stringify(found).indexOf(last.code) < 0)
      throw new Error(`${name}: a scan did not find ${last.code}: ${JSON.stringify(found)}`);
    console.log(benchLine(`hub_${name}`, `new_till_ready_${CATALOG}_products`, performance.now() - t0, 30_000, 'ms'));
  } finally {
    await core.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function run(name: string, db: HubDb, gatewayUrl: string): Promise<void> {
  const service = createHubService(db);
  const shopId = await service.ensureDefaultShop();
  const server = await startHubServer({ service, adminToken: 'bench-admin-token-0123456789abcdef' });
  try {
    const tills = await enrolTills(service, server.url, shopId, TILLS, 'S');
    const shop = await shopLoad(name, tills);
    const sat = await saturation(name, await enrolTills(service, server.url, shopId, SAT_TILLS, 'X'));
    const stored = await service.orderCount(shopId);
    if (stored.orders !== shop + sat)
      throw new Error(`${name}: the hub holds ${stored.orders} orders, ${shop + sat} were pushed`);
    if ((await service.tillStatus(shopId)).some((s) => s.gaps.length)) throw new Error(`${name}: a till has gaps`);
    const top = await catalog(name, service, shopId, tills);
    await newTill(name, service, server.url, shopId, gatewayUrl, top);
  } finally {
    await server.close();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-hub-'));
const sandbox = await startSandbox({ port: 0 });
try {
  const lite = await openPglite(dir);
  try {
    await run('pglite', lite, sandbox.url);
  } finally {
    await lite.close();
  }
  if (!postgresAvailable()) throw new Error('PostgreSQL 15 is not installed (apt-get install -y postgresql)');
  const cluster = await startPostgres({ durable: true });
  try {
    const pg = await openPostgres(cluster.url);
    try {
      await run('postgres', pg, sandbox.url);
    } finally {
      await pg.close();
    }
  } finally {
    cluster.stop();
  }
} finally {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
