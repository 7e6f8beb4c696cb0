/**
 * prices-cart: a cart of 100 lines re-priced by the rules in force (issue 42: under 20 ms), with 100,000 products,
 * 20 price lists and 1,000 promotions, as `prices.quote` does it (each line's product read from SQLite, the cart
 * priced by the engine, multi-buy resolved over it). Lines are drawn so that about a third carry a promotion or a
 * list price. The figure is the p95 of many re-pricings.
 */
import { benchLine, percentile } from './format.ts';
import { setUpPrices, PRODUCTS } from './prices-setup.ts';
import { rng } from '../test/catalog/generate.ts';

const RUNS = Number(process.env.BENCH_N ?? 300);
const LIMIT_MS = 20;

const bench = setUpPrices();
try {
  const random = rng(5);
  const times: number[] = [];
  let ruled = 0;
  for (let run = 0; run < RUNS + 10; run++) {
    const lines = Array.from({ length: 100 }, (_, i) => {
      // A third from the products promotions name (P(k·97)), the rest anywhere.
      const n = i % 3 === 0 ? (Math.floor(random() * 1000) * 97) % PRODUCTS : Math.floor(random() * PRODUCTS);
      return { code: `P${n}`, quantity: 1 + (i % 4) };
    });
    const t0 = performance.now();
    const priced = bench.prices.quote({ lines });
    const ms = performance.now() - t0;
    if (run >= 10) times.push(ms);
    ruled += priced.filter((p) => p.rule).length;
  }
  process.stderr.write(`lines priced by a rule: ${((ruled / ((RUNS + 10) * 100)) * 100).toFixed(0)} %\n`);
  console.log(benchLine('prices-cart', 'p50', percentile(times, 50), LIMIT_MS, 'ms'));
  console.log(benchLine('prices-cart', 'p95', percentile(times, 95), LIMIT_MS, 'ms'));
} finally {
  bench.close();
}
