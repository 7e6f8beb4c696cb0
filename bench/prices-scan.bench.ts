/**
 * prices-scan: a scanned barcode to its priced cart line in the core (issue 42: under 50 ms at p95), with 100,000
 * products, 20 price lists and 1,000 promotions: the barcode looked up in the catalog, then the whole cart (up to
 * 25 lines, a new customer every 25 scans) priced by the rules in force, multi-buy resolved over the cart, as
 * `prices.quote` does. Real SQLite file; the price index is built once, at the first pricing.
 */
import { benchLine, percentile } from './format.ts';
import { setUpPrices } from './prices-setup.ts';
import { rng } from '../test/catalog/generate.ts';

const SCANS = Number(process.env.BENCH_N ?? 2000);
const WARMUP = 20;
const LIMIT_MS = 50;

const bench = setUpPrices();
try {
  const random = rng(3);
  const times: number[] = [];
  let cart: { code: string; quantity: number }[] = [];
  for (let i = 0; i < SCANS + WARMUP; i++) {
    if (i % 25 === 0) cart = [];
    const barcode = bench.barcodes[Math.floor(random() * bench.barcodes.length)] as string;
    const t0 = performance.now();
    const scanned = bench.catalog.byBarcode(barcode, ['Ђ']);
    if (!scanned) throw new Error(`unknown barcode ${barcode}`);
    cart.push({ code: scanned.product.code, quantity: 1 });
    const priced = bench.prices.quote({ lines: cart });
    const ms = performance.now() - t0;
    if (priced.length !== cart.length) throw new Error('cart not priced');
    if (i >= WARMUP) times.push(ms);
  }
  console.log(benchLine('prices-scan', 'p50', percentile(times, 50), LIMIT_MS, 'ms'));
  console.log(benchLine('prices-scan', 'p95', percentile(times, 95), LIMIT_MS, 'ms'));
} finally {
  bench.close();
}
