/**
 * Smoke test of the real desktop app with Playwright's `_electron`: start Electron on the built app in
 * demo mode (embedded sandbox gateway, fresh data dir), check the window's security in the live renderer,
 * make a sale through `window.pos` (preload -> IPC -> core -> sandbox) and see it fiscalized.
 *
 * Needs the Electron binary (node_modules/electron/dist, downloaded by electron's postinstall). Where it
 * is absent (machines without internet) the test is skipped and says why; it is never faked.
 */
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { closeDesktop, ELECTRON, electronSkipReason, launchDesktop, type Desktop } from './electron-support.ts';

const SKIP_REASON = electronSkipReason('electron.spec');

test.describe('desktop app (Electron)', () => {
  test.skip(ELECTRON.path === null, SKIP_REASON);

  let desktop: Desktop | undefined;
  let app: ElectronApplication;
  let page: Page;

  test.beforeAll(async () => {
    desktop = await launchDesktop('kasa-electron-', { KASA_LANG: 'en', ELECTRON_ENABLE_LOGGING: '1' });
    app = desktop.app;
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterAll(() => closeDesktop(desktop));

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
