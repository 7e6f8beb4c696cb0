/**
 * The `kasa` fixture: a fresh browser host (own data directory, embedded sandbox gateway) and a page
 * opened on it with the token. `kasa.sandbox(what, body)` drives the sandbox's test controls.
 */
import { test as base, type Page } from '@playwright/test';
import fs from 'node:fs';
import { sandboxControl, startHostProcess, type HostProcess } from '../support/host-process.ts';

export interface KasaFixture {
  host: HostProcess;
  page: Page;
  url: string;
  token: string;
  sandboxUrl: string;
  sandbox(what: string, body?: unknown): Promise<unknown>;
}

export const test = base.extend<{ kasa: KasaFixture; kasaEnv: Record<string, string> }>({
  kasaEnv: [{}, { option: true }],
  kasa: async ({ page, kasaEnv }, use) => {
    const host = await startHostProcess({ env: { KASA_ONLINE_BUDGET_MS: '3000', ...kasaEnv } });
    try {
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
      await host.stop();
      fs.rmSync(host.dataDir, { recursive: true, force: true });
    }
  },
});

export { expect } from '@playwright/test';
