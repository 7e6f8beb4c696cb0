/**
 * Smoke test of the real desktop app with Playwright's `_electron`: start Electron on the built app in
 * demo mode (embedded sandbox gateway, fresh data dir), check the window's security in the live renderer,
 * make a sale through `window.pos` (preload -> IPC -> core -> sandbox) and see it fiscalized.
 *
 * Needs the Electron binary (node_modules/electron/dist, downloaded by electron's postinstall). Where it
 * is absent (machines without internet) the test is skipped and says why; it is never faked.
 */
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { electronBinary } from '../../scripts/electron-binary.ts';
import { ROOT } from '../../scripts/build-if-stale.ts';

const bin = electronBinary();
const SKIP_REASON = bin.path === null ? `Electron binary not available: ${bin.reason}` : '';
if (SKIP_REASON) process.stdout.write(`[electron.spec] SKIPPED: ${SKIP_REASON}\n`);

test.describe('desktop app (Electron)', () => {
  test.skip(bin.path === null, SKIP_REASON);

  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  test.beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-electron-'));
    app = await electron.launch({
      executablePath: bin.path ?? undefined,
      args: [ROOT],
      cwd: ROOT,
      env: { ...process.env, KASA_DATA_DIR: dataDir, KASA_LANG: 'en', KASA_API_KEY: '', ELECTRON_ENABLE_LOGGING: '1' },
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterAll(async () => {
    await app?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('loads from app://kasa with the renderer locked down', async () => {
    expect(page.url()).toBe('app://kasa/index.html');
    const probe = await page.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      pos: typeof (globalThis as { pos?: unknown }).pos,
      popup: window.open('https://example.com/') === null,
    }));
    expect(probe).toEqual({ require: 'undefined', process: 'undefined', pos: 'object', popup: true });
    const csp = await page.evaluate(async () =>
      (await fetch('app://kasa/index.html')).headers.get('content-security-policy'),
    );
    expect(csp).toContain("default-src 'none'");
    expect(await page.evaluate(async () => (await fetch('app://kasa/../../../../etc/passwd')).status)).not.toBe(200);
    // The main process's view: one window, on our origin.
    const urls = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows().map((w) => w.webContents.getURL()),
    );
    expect(urls).toEqual(['app://kasa/index.html']);
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe('app://kasa/index.html');
  });

  test('a sale in demo mode is fiscalized', async () => {
    const info = await page.evaluate(() =>
      (globalThis as unknown as { pos: Record<string, (i?: unknown) => Promise<unknown>> }).pos['app.info']?.(),
    );
    expect(info).toMatchObject({ ok: true, value: { mode: 'demo', transport: 'electron' } });
    const result = (await page.evaluate(() =>
      (globalThis as unknown as { pos: Record<string, (i?: unknown) => Promise<unknown>> }).pos['sales.checkout']?.({
        lines: [{ name: 'Хлеб', quantity: 1, unitPrice: 12000, labels: ['A'] }],
        payments: [{ type: 'cash', amount: 12000 }],
      }),
    )) as { ok: boolean; value?: { orderId: number; state: string } };
    expect(result.ok, JSON.stringify(result)).toBe(true);
    await expect
      .poll(async () => {
        const r = (await page.evaluate(
          (orderId) =>
            (globalThis as unknown as { pos: Record<string, (i?: unknown) => Promise<unknown>> }).pos['orders.get']?.({
              orderId,
            }),
          result.value?.orderId,
        )) as { value?: { state: string } };
        return r.value?.state;
      })
      .toBe('fiscalized');
    await expect(page.locator('#root')).not.toBeEmpty();
  });
});
