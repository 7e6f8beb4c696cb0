import { describe, expect, it } from 'vitest';
import { createScanDetector, looksLikeBarcode } from './scanner.ts';

function type(d: ReturnType<typeof createScanDetector>, text: string, start: number, gap: number): number {
  let t = start;
  for (const ch of text) {
    d.key(ch, t);
    t += gap;
  }
  return t - gap;
}

describe('scan detector', () => {
  it('takes a fast burst of digits ending in Enter as a scan', () => {
    const d = createScanDetector();
    const last = type(d, '8600000100018', 1000, 8);
    expect(d.enter(last + 8)).toBe('8600000100018');
  });

  it('ignores human typing (gaps above the limit)', () => {
    const d = createScanDetector();
    const last = type(d, '8600000100018', 1000, 140);
    expect(d.enter(last + 120)).toBeNull();
  });

  it('keeps only the trailing fast run after slow typing, and needs digits and a minimum length', () => {
    const d = createScanDetector({ minLength: 6 });
    type(d, 'mle', 0, 200);
    const last = type(d, '96385074', 1000, 5);
    expect(d.enter(last + 5)).toBe('96385074');
    const l2 = type(d, 'ABC123456', 5000, 5);
    expect(d.enter(l2 + 5)).toBeNull();
    const l3 = type(d, '12345', 9000, 5);
    expect(d.enter(l3 + 5)).toBeNull();
  });

  it('refuses an Enter that comes long after the burst, and resets after each Enter', () => {
    const d = createScanDetector();
    const last = type(d, '8600000100018', 0, 5);
    expect(d.enter(last + 500)).toBeNull();
    expect(d.enter(last + 501)).toBeNull();
  });

  it('recognises what only a barcode looks like', () => {
    expect(looksLikeBarcode('8600000100018')).toBe(true);
    expect(looksLikeBarcode(' 96385074 ')).toBe(true);
    expect(looksLikeBarcode('1001')).toBe(false);
    expect(looksLikeBarcode('mleko')).toBe(false);
  });
});
