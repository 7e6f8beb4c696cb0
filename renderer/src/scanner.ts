/**
 * Barcode scanners act as keyboards: a burst of keystrokes, a few milliseconds apart, ending in Enter.
 * The detector keeps the trailing run of fast keystrokes; a human typing leaves gaps far above `maxGapMs`.
 */
export interface ScanDetectorOptions {
  /** Shortest code accepted as a scan (default 4). */
  minLength?: number;
  /** Longest pause between two keystrokes of one scan (default 50 ms). */
  maxGapMs?: number;
}

export interface ScanDetector {
  /** Records one printable keystroke at time `t` (ms). */
  key(char: string, t: number): void;
  /** At Enter: the scanned code if the keys before it were one fast run of digits, else null. Resets. */
  enter(t: number): string | null;
  reset(): void;
}

/** Creates a detector; feed it keydown events (`event.key`, `event.timeStamp`). */
export function createScanDetector(options: ScanDetectorOptions = {}): ScanDetector {
  const minLength = options.minLength ?? 4;
  const maxGap = options.maxGapMs ?? 50;
  let buffer = '';
  let last = Number.NEGATIVE_INFINITY;
  return {
    key(char, t) {
      if (t - last > maxGap) buffer = '';
      buffer += char;
      last = t;
    },
    enter(t) {
      const code = buffer;
      const fast = t - last <= maxGap;
      buffer = '';
      last = Number.NEGATIVE_INFINITY;
      return fast && code.length >= minLength && /^\d+$/.test(code) ? code : null;
    },
    reset() {
      buffer = '';
      last = Number.NEGATIVE_INFINITY;
    },
  };
}

/** True for what a cashier would only type as a barcode: 8 to 14 digits. */
export function looksLikeBarcode(text: string): boolean {
  return /^\d{8,14}$/.test(text.trim());
}
