/**
 * hub: the store hub under N simulated tills (default 8), on the embedded PGlite and on a real
 * PostgreSQL 15 (fsync on), side by side. Every till enrols, then pushes its sales in batches of 50 as
 * fast as the hub acknowledges them (HTTP on loopback, the till's own client); the figures are the ingest
 * rate (orders/s, limit: 100/s, a day of a busy 10-till shop (10,000 orders) caught up in 100 s), the p99
 * of one push (limit 1 s) and the catalog propagation: a price changed at the hub until every till,
 * polling every second as the till's sync does, has it (limit 5 s, the promise). The run fails
 * unless the hub holds every order exactly once with no gap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HubClient } from '../electron/hub/client.ts';
import { openPglite, openPostgres, type HubDb } from '../hub/db/db.ts';
import type { HubEvent, OrderSnapshot } from '../hub/schemas.ts';
import { startHubServer } from '../hub/server.ts';
import { createHubService } from '../hub/service.ts';
import { postgresAvailable, startPostgres } from '../test/support/postgres.ts';
import { benchLine, percentile } from './format.ts';

const TILLS = Number(process.env.BENCH_HUB_TILLS ?? 8);
const BATCHES = Number(process.env.BENCH_HUB_BATCHES ?? 20);
const BATCH = 50;
const POLL_MS = 1000;

const order = (till: number, n: number): OrderSnapshot => ({
  order_number: `B${till}-20261123-${n}`,
  kind: 'sale',
  invoice_type: 'normal',
  transaction_type: 'sale',
  state: 'fiscalized',
  created_at: new Date(Date.UTC(2026, 10, 23, 8, 0, 0, n)).toISOString(),
  total_para: 10_000 + n,
  data: {
    lines: [{ name: 'Хлеб', quantityMilli: 1000, unitPara: 10_000 + n, totalPara: 10_000 + n, labels: ['A'] }],
    payments: [{ type: 'cash', amountPara: 10_000 + n }],
    cashier: `Касир ${till}`,
  },
  invoice_number: `INV${till}-${n}`,
  sdc_date_time: '2026-11-23T08:00:00.000+01:00',
  receipt: { taxItems: [{ label: 'A', rate: 20, amount: 0, categoryType: 0, categoryName: 'ПДВ' }] },
});

async function run(name: string, db: HubDb): Promise<void> {
  const service = createHubService(db);
  const shopId = await service.ensureDefaultShop();
  const server = await startHubServer({ service, adminToken: 'bench' });
  try {
    const tills: { client: HubClient; tillId: number; index: number }[] = [];
    for (let i = 0; i < TILLS; i++) {
      const r = await new HubClient({ baseUrl: server.url }).enrol(await service.newEnrolCode(shopId), `BENCH-${i}`);
      tills.push({ client: new HubClient({ baseUrl: server.url, credential: r.credential }), tillId: r.tillId, index: i });
    }
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      tills.map(async (t) => {
        for (let b = 0; b < BATCHES; b++) {
          const events: HubEvent[] = Array.from({ length: BATCH }, (_, k) => {
            const seq = b * BATCH + k + 1;
            return { seq, kind: 'order', ref: `B${t.index}-${seq}`, payload: order(t.index, seq) };
          });
          const s = performance.now();
          const res = await t.client.push(t.tillId, events);
          latencies.push(performance.now() - s);
          if (res.acked !== (b + 1) * BATCH) throw new Error(`till ${t.index}: acked ${res.acked} after batch ${b}`);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const total = TILLS * BATCHES * BATCH;
    const stored = await service.orderCount(shopId);
    if (stored.orders !== total) throw new Error(`${name}: the hub holds ${stored.orders} orders, ${total} were pushed`);
    const status = await service.tillStatus(shopId);
    if (status.some((s) => s.gaps.length)) throw new Error(`${name}: a till has gaps`);

    // Catalog propagation: every till polls /changes every second, like the till's sync loop.
    const cursors = await Promise.all(tills.map(async (t) => (await t.client.changes(0)).cursor));
    const p0 = performance.now();
    await service.upsertProducts(shopId, [{ code: 'MLK', name: 'Млеко', pricePara: 15_900, label: 'A', unit: 'piece' }]);
    const seen = await Promise.all(
      tills.map(async (t, i) => {
        // Each till's poll is at an arbitrary phase of its second.
        await new Promise((r) => setTimeout(r, (i * POLL_MS) / TILLS));
        for (;;) {
          const c = await t.client.changes(cursors[i] ?? 0);
          if (c.products.some((p) => p.code === 'MLK' && p.pricePara === 15_900)) return performance.now() - p0;
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      }),
    );
    process.stderr.write(`hub ${name}: ${total} orders from ${TILLS} tills in ${seconds.toFixed(2)} s\n`);
    console.log(benchLine(`hub_${name}`, 'ingest', total / seconds, 100, 'orders/s'));
    console.log(benchLine(`hub_${name}`, 'push_p99', percentile(latencies, 99), 1000, 'ms'));
    console.log(benchLine(`hub_${name}`, 'catalog_propagation', Math.max(...seen), 5000, 'ms'));
  } finally {
    await server.close();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-hub-'));
try {
  const lite = await openPglite(dir);
  try {
    await run('pglite', lite);
  } finally {
    await lite.close();
  }
  if (!postgresAvailable()) throw new Error('PostgreSQL 15 is not installed (apt-get install -y postgresql)');
  const cluster = await startPostgres({ durable: true });
  try {
    const pg = await openPostgres(cluster.url);
    try {
      await run('postgres', pg);
    } finally {
      await pg.close();
    }
  } finally {
    cluster.stop();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
