/**
 * The customer display's second window in the real desktop app (docs/payments.md, "The customer display"): Electron
 * started with KASA_CUSTOMER_DISPLAY=window opens a second window on app://kasa drawing the display in
 * KASA_DISPLAY_LANG; a cart the till's window sends (`display.show` through its preload) appears there.
 *
 * Needs the Electron binary, like electron.spec.ts: where it is absent the test is skipped and says why.
 */
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { closeDesktop, ELECTRON, electronSkipReason, launchDesktop, type Desktop } from './electron-support.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';

const SKIP_REASON = electronSkipReason('electron-display.spec');

test.describe('customer display window (Electron)', () => {
  test.skip(ELECTRON.path === null, SKIP_REASON);

  let desktop: Desktop | undefined;
  let app: ElectronApplication;

  test.beforeAll(async () => {
    desktop = await launchDesktop('kasa-electron-display-', {
      KASA_LANG: 'sr-Cyrl',
      KASA_CUSTOMER_DISPLAY: 'window',
      KASA_DISPLAY_LANG: 'en',
    });
    app = desktop.app;
  });

  test.afterAll(() => closeDesktop(desktop));

  test('a second window shows the cart the till sends, in its own language', async () => {
    const windows = async (): Promise<Page[]> => {
      await expect.poll(() => app.windows().length).toBe(2);
      return app.windows();
    };
    const all = await windows();
    const display = all.find((p) => p.url().includes('#display=')) as Page;
    const till = all.find((p) => p !== display) as Page;
    expect(display.url()).toBe('app://kasa/index.html#display=en');
    const screen = display.getByRole('main', { name: uiMessages.en.display.title });
    await expect(screen).toBeVisible();
    // The first-run manager changes the PIN and logs in, then the till's window sends a cart.
    const sent = await till.evaluate(async () => {
      const pos = (globalThis as unknown as { pos: Record<string, (i: unknown) => Promise<{ ok: boolean }>> }).pos;
      await pos['staff.changePin']?.({ currentPin: '0000', newPin: '482916' });
      await pos['staff.login']?.({ pin: '482916' });
      return pos['display.show']?.({
        phase: 'cart',
        lines: [{ name: 'Хлеб бели 500 г', quantity: 2, unitPrice: 65, total: 130 }],
        total: 130,
      });
    });
    expect(sent?.ok).toBe(true);
    await expect(screen.getByTestId('display-line')).toHaveCount(1);
    await expect(screen.getByTestId('display-total')).toHaveText('130,00 RSD');
  });
});
