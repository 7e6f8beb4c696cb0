/**
 * catalog-list: the catalog screen's product list (`catalog.list`) on 100,000 products, through the host's
 * HTTP transport as the screen calls it: the first page, a page deep in the catalog (keyset on the code,
 * so page 1,000 costs what page 1 does), the next page after it, and a search. Each call is timed from
 * the request to the parsed answer; pages and searches are separate figures. Limit: 50 ms at p95.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProductPage } from '../shared/contract/catalog.ts';
import { signInHost, startHostProcess } from '../test/support/host-process.ts';
import { rng, seedCatalog } from '../test/catalog/generate.ts';
import { benchLine, percentile } from './format.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const CALLS = Number(process.env.BENCH_N ?? 200);
const LIMIT_MS = 50;

const dataDir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-list-'));
const catalog = seedCatalog(dataDir, PRODUCTS);
const host = await startHostProcess({ dataDir });
try {
  await signInHost(host);
  const random = rng(7);
  const pages: number[] = [];
  const searches: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    // The generated codes are 100000 + i: start a page anywhere in the catalog.
    const kind = i % 4;
    const name = catalog.names[Math.floor(random() * catalog.names.length)] as string;
    const input =
      kind === 0
        ? { limit: 50 }
        : kind === 3
          ? { query: name.split(' ').slice(0, 2).join(' '), limit: 50 }
          : { after: String(100000 + Math.floor(random() * PRODUCTS)), limit: 50 };
    const started = performance.now();
    const r = await host.call<ProductPage>('catalog.list', input);
    const page = r.body.value;
    if (kind === 1 && page?.next) await host.call<ProductPage>('catalog.list', { after: page.next, limit: 50 });
    const ms = performance.now() - started;
    if (!r.body.ok || !page || page.total !== PRODUCTS) throw new Error(`catalog.list: ${JSON.stringify(r.body)}`);
    if (i >= 10) (kind === 3 ? searches : pages).push(kind === 1 ? ms / 2 : ms);
  }
  console.log(benchLine('catalog-list', 'page_p50', percentile(pages, 50), LIMIT_MS, 'ms'));
  console.log(benchLine('catalog-list', 'page_p95', percentile(pages, 95), LIMIT_MS, 'ms'));
  console.log(benchLine('catalog-list', 'search_p50', percentile(searches, 50), LIMIT_MS, 'ms'));
  console.log(benchLine('catalog-list', 'search_p95', percentile(searches, 95), LIMIT_MS, 'ms'));
} finally {
  await host.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
