/**
 * Debian's Chromium as every browser test and benchmark launches it: the executable and the switches
 * this closed network needs (no background networking, no component updates, no QUIC).
 */
import { chromium, type Browser } from '@playwright/test';

export const CHROMIUM_EXECUTABLE = process.env.KASA_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
}
