/** Debian's Chromium through Playwright, as the e2e tests launch it. */
import { chromium, type Browser } from '@playwright/test';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.KASA_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The sale screen's search box: present and enabled means the counter is ready for a sale. */
export const SEARCH_NAME = 'Претрага или бар-код';
