/**
 * Debian's Chromium as every browser test and benchmark launches it: the executable and the switches
 * this closed network needs (no background networking, no component updates, no QUIC).
 *
 * The tests drive Debian's headless shell of the same Chromium (package `chromium-headless-shell`, the engine
 * Playwright itself runs headless tests in): the same Blink, V8 and fonts without the full browser's machinery, at
 * about 1.2 CPU-seconds a page opened against 2.9 for the full browser on this machine (ten pages of the till,
 * measured side by side: 12.2 against 29.3 CPU-seconds). Where it is not installed the tests take the full browser.
 * The benchmarks measure what the till's window costs, so they launch the full browser (`CHROMIUM_FULL`).
 */
import fs from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

export const CHROMIUM_FULL = process.env.KASA_CHROMIUM ?? '/usr/bin/chromium';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const CHROMIUM_EXECUTABLE =
  process.env.KASA_CHROMIUM ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_FULL);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The full browser, as the benchmarks of the till's window measure it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_FULL, args: CHROMIUM_ARGS });
}
