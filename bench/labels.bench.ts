/**
 * labels: shelf labels for 1,000 products generated (issue 42: under 2 s) in each output, through the labels service
 * on a real SQLite file with the prices benchmarks' shop (10,000 products here, 20 price lists, 1,000 promotions):
 * each label's price in force, unit price and promotion, laid out and encoded as one ZPL job (sent to a printer on
 * an ephemeral loopback port), one TSPL job, and one A4 PDF (Avery 3474, fonts embedded). The figure is the median
 * of five runs of each.
 */
import net from 'node:net';
import { benchLine, percentile } from './format.ts';

process.env.BENCH_PRODUCTS ??= '10000';
const { setUpPrices } = await import('./prices-setup.ts');
const { createLabelsService } = await import('../electron/labels/service.ts');
const { createTransportFactory } = await import('../electron/printer/transport.ts');

const LABELS = 1000;
const LIMIT_MS = 2000;
const RUNS = 5;

const received: number[] = [];
const server = net.createServer((s) => {
  let n = 0;
  s.on('data', (d) => (n += d.length));
  s.on('end', () => {
    received.push(n);
    s.end();
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as net.AddressInfo).port;

const bench = setUpPrices();
try {
  const labels = createLabelsService(bench.db, {
    shelfPrices: (products, at) => bench.prices.shelfPrices(products, at),
    audit: () => undefined,
    transports: createTransportFactory(),
    shopName: () => 'Бенч',
    env: { KASA_PRINTER_ALLOW_LOOPBACK: '1' },
  });
  const codes = bench.codes.slice(0, LABELS);
  for (const [i, code] of codes.entries())
    labels.setProduct({ code, netQuantity: i % 2 ? 0.5 : 1, netUnit: i % 3 ? 'kg' : 'l', unitPriceRequired: true });
  const selection = { kind: 'products' as const, codes };
  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (const [name, presetId] of [
    ['zpl', 'zebra-203'],
    ['tspl', 'tsc-203'],
  ] as const) {
    labels.setPrinter({
      uri: `tcp://127.0.0.1:${port}`,
      presetId,
      widthMm: 58,
      heightMm: 40,
      media: 'gap',
      mediaMm: 2,
    });
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      times.push(
        await time(async () => {
          const r = await labels.print({ selection, script: 'sr-Cyrl' });
          if (r.printed !== LABELS) throw new Error(`printed ${r.printed}`);
        }),
      );
    }
    process.stderr.write(`${name}: ${received[received.length - 1] ?? 0} bytes per job\n`);
    console.log(benchLine('labels', `${name}-${LABELS}`, percentile(times, 50), LIMIT_MS, 'ms'));
  }
  const pdfTimes: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++)
    pdfTimes.push(
      await time(async () => {
        const f = await labels.pdf({ selection, script: 'sr-Cyrl', stock: 'avery-3474' });
        bytes = f.base64.length;
      }),
    );
  process.stderr.write(`pdf: ${Math.round((bytes * 3) / 4 / 1024)} KiB, ${Math.ceil(LABELS / 24)} pages\n`);
  console.log(benchLine('labels', `pdf-${LABELS}`, percentile(pdfTimes, 50), LIMIT_MS, 'ms'));
} finally {
  bench.close();
  server.close();
}
