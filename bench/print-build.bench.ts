/**
 * Benchmark: time to build the bytes of a typical receipt (gateway-style 40-column journal with a
 * ~250-character verificationUrl) in text mode (native QR, 80 mm) and raster mode (58 mm, whole
 * receipt as an image). Median of many iterations after a warm-up.
 *
 *   npx node bench/print-build.bench.ts
 */
import { buildReceiptBytes } from '../electron/printer/layout.ts';
import { findPreset } from '../electron/printer/profiles.ts';
import { makeReceipt } from '../test/printer/fixtures.ts';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function measure(fn: () => unknown, iterations: number): number {
  for (let i = 0; i < Math.min(20, iterations); i++) fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const receipt = makeReceipt({ seed: 'bench', latin: true, items: 10 });
const text = findPreset('epson-tm-t88v')!;
const raster = findPreset('zj-5870')!;
const figures: [string, number, number][] = [
  ['text_ms', measure(() => buildReceiptBytes(receipt, text, { openDrawer: true }), 500), 5],
  ['raster_ms', measure(() => buildReceiptBytes(receipt, raster, { mode: 'raster', openDrawer: true }), 100), 50],
];
for (const [name, value, limit] of figures) {
  console.log(`BENCH print-build ${name}=${value.toFixed(2)}ms limit=${limit}ms ratio=${(value / limit).toFixed(2)}`);
}
