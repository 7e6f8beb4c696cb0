/**
 * search: search-as-you-type in Chromium through the browser host with 100,000 products. Each typed
 * character is measured from its input event's time to the first animation frame after the result list
 * for exactly that text is in the DOM. Names are typed as a person types (one key at a time, waiting for
 * the results), in Cyrillic and in Latin. Limit: 50 ms at p95. (Digit-only text waits 120 ms by design,
 * since it may be a scan in progress; it is not part of this figure.)
 */
import { startCounterBench } from '../test/catalog/counter-bench.ts';
import { rng } from '../test/catalog/generate.ts';
import { benchLine, percentile } from './format.ts';
import { foldText } from '../shared/catalog/fold.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const QUERIES = Number(process.env.BENCH_N ?? 60);
const LIMIT_MS = 50;

/** Latin as many cashiers type it: without diacritics (the search folds both scripts and diacritics). */
const toLatin = foldText;

const bench = await startCounterBench(PRODUCTS);
try {
  const { page, catalog } = bench;
  const search = page.getByRole('combobox', { name: 'Претрага или бар-код' });
  const random = rng(11);
  const times: number[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const name = catalog.names[Math.floor(random() * catalog.names.length)] as string;
    const [noun = '', adj = ''] = name.split(' ');
    // e.g. "Млеко сре" or "mleko sre": a word and the start of the next.
    const text = `${noun} ${adj.slice(0, 3)}`;
    const typed = q % 2 === 0 ? text : toLatin(text);
    await search.fill('');
    for (const ch of typed) {
      await page.evaluate(() => {
        const w = window as unknown as { __resultsMs: Promise<number>; __inputAt: number };
        const input = document.getElementById('search') as HTMLInputElement;
        const done = () => {
          const list = document.getElementById('search-results');
          return input.value.trim() === '' || (list !== null && list.dataset.query === input.value);
        };
        w.__resultsMs = new Promise<number>((resolve) => {
          const obs = new MutationObserver(() => {
            if (!done()) return;
            obs.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - w.__inputAt));
          });
          obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        });
      });
      await page.keyboard.type(ch);
      const ms = await page.evaluate(() => (window as unknown as { __resultsMs: Promise<number> }).__resultsMs);
      if (ch !== ' ' && q >= 2) times.push(ms);
    }
  }
  console.log(benchLine('search', 'p50', percentile(times, 50), LIMIT_MS, 'ms'));
  console.log(benchLine('search', 'p95', percentile(times, 95), LIMIT_MS, 'ms'));
} finally {
  await bench.close();
}
