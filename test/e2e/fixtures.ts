/**
 * The `kasa` fixture: a fresh browser host (own data directory, embedded sandbox gateway) and a page
 * opened on it with the token, left on about:blank before the host stops. `kasa.sandbox(what, body)` drives the
 * sandbox's test controls.
 */
import { test as base, type Page } from '@playwright/test';
import fs from 'node:fs';
import { sandboxControl, signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';

export interface KasaFixture {
  host: HostProcess;
  page: Page;
  url: string;
  token: string;
  sandboxUrl: string;
  sandbox(what: string, body?: unknown): Promise<unknown>;
}

export const test = base.extend<{ kasa: KasaFixture; kasaEnv: Record<string, string>; kasaFirstRun: boolean }>({
  kasaEnv: [{}, { option: true }],
  /** Leave the first-run PIN 0000 in place (default: changed to MANAGER_PIN and that manager logged in). */
  kasaFirstRun: [false, { option: true }],
  kasa: async ({ page, kasaEnv, kasaFirstRun }, use) => {
    const host = await startHostProcess({ env: { KASA_ONLINE_BUDGET_MS: '3000', ...kasaEnv } });
    try {
      if (!kasaFirstRun) await signInHost(host);
      await page.goto(`${host.url}#token=${host.token}`);
      const sandboxUrl = host.sandboxUrl ?? '';
      await use({
        host,
        page,
        url: host.url,
        token: host.token,
        sandboxUrl,
        sandbox: (what, body) => sandboxControl(sandboxUrl, what, body),
      });
    } finally {
      try {
        // The page's event stream is closed before the host stops: the host's close() waits for open connections,
        // and the EventSource reconnects on a kept-alive socket.
        await page.goto('about:blank');
      } finally {
        await host.stop();
        fs.rmSync(host.dataDir, { recursive: true, force: true });
      }
    }
  },
});

export { expect } from '@playwright/test';
