/**
 * hub-catalog: the hub's Артикли list (GET /api/admin/products) on a shop of 100,000 products
 * (BENCH_HUB_CATALOG), on the embedded PGlite and on a real PostgreSQL 15 (when installed), over HTTP as the
 * hub UI calls it with a manager's session: the first page, a page deep in the catalog and the next one after
 * it (keyset on `products_live`), each 50 products with the shop's count. Figures per backend: the page's p99
 * (`hub-catalog-page`), and a search's p99 (`hub-catalog-search`, a part of a name, one page). Limit 50 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type HubDb } from '../hub/db/db.ts';
import { startHubServer } from '../hub/server.ts';
import { createHubService } from '../hub/service.ts';
import type { ProductInput } from '../shared/hub/protocol.ts';
import { fetchSend, hubClient } from '../shared/hub/client.ts';
import { hashPin } from '../shared/node/pin.ts';
import { postgresAvailable, startPostgres } from '../test/support/postgres.ts';
import { benchLine, percentile } from './format.ts';

const PRODUCTS = Number(process.env.BENCH_HUB_CATALOG ?? 100_000);
const CALLS = Number(process.env.BENCH_N ?? 300);
const LIMIT_MS = 50;
const ADMIN = 'bench-admin-token-0123456789abcdefgh';
const WORDS = ['Млеко', 'Хлеб', 'Сок', 'Јогурт', 'Сир', 'Кафа', 'Чоколада', 'Вода', 'Пиво', 'Јабука'];

async function run(name: string, db: HubDb): Promise<void> {
  const service = createHubService(db);
  const shop = await service.ensureDefaultShop('Bench');
  await service.upsertStaff(shop, [{ name: 'Ана', role: 'manager', pinHash: await hashPin('246810') }]);
  const products: ProductInput[] = Array.from({ length: PRODUCTS }, (_, i) => ({
    code: String(100_000 + i),
    name: `${WORDS[i % WORDS.length]} ${i}`,
    pricePara: 1000 + (i % 50_000),
    label: 'Ђ',
    unit: 'piece',
    group: `Група ${i % 40}`,
    barcodes: [String(8_600_000_000_000 + i)],
  }));
  await service.upsertProducts(shop, products);
  const server = await startHubServer({ service, adminToken: ADMIN });
  try {
    const { token } = await hubClient(fetchSend({ baseUrl: server.url, fetch })).call('login', { pin: '246810' });
    const api = hubClient(fetchSend({ baseUrl: server.url, token, fetch }));
    const get = (query: { limit: number; q?: string; after?: string }) => api.call('products', query);
    const pages: number[] = [];
    const searches: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const kind = i % 3;
      const started = performance.now();
      if (kind === 2) {
        const word = WORDS[i % WORDS.length] as string;
        const r = await get({ limit: 50, q: `${word.toLowerCase()} ${i % 97}` });
        if (r.total !== PRODUCTS) throw new Error('search: wrong total');
        if (i >= 10) searches.push(performance.now() - started);
        continue;
      }
      const after = kind === 0 ? {} : { after: String(100_000 + Math.floor(Math.random() * (PRODUCTS - 100))) };
      const r = await get({ limit: 50, ...after });
      if (r.products.length !== 50 || r.total !== PRODUCTS) throw new Error(`page: ${r.products.length} ${r.total}`);
      if (i >= 10) pages.push(performance.now() - started);
    }
    console.log(benchLine(`hub-catalog-page`, `${name}_p99`, percentile(pages, 99), LIMIT_MS, 'ms'));
    console.log(benchLine(`hub-catalog-page`, `${name}_p50`, percentile(pages, 50), LIMIT_MS, 'ms'));
    console.log(benchLine(`hub-catalog-search`, `${name}_p99`, percentile(searches, 99), LIMIT_MS, 'ms'));
  } finally {
    await server.close();
  }
}

const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-hub-catalog-'));
try {
  const lite = await openPglite(dir);
  try {
    await run('pglite', lite);
  } finally {
    await lite.close();
  }
  if (postgresAvailable()) {
    const cluster = await startPostgres();
    const pg = await openPostgres(cluster.url);
    try {
      await run('postgres', pg);
    } finally {
      await pg.close();
      cluster.stop();
    }
  } else console.error('hub-catalog: PostgreSQL 15 is not installed; PGlite only');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
