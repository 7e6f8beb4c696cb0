/**
 * Quick keys above the fold (issue 38, item 5), through the browser host and the sandbox gateway, in Chromium, in
 * all three languages. At 1024×768 and 1366×768, with the demo banner and an approval notice over the counter, with
 * an empty cart and with a 10-line cart, at least 12 quick keys are whole on screen: each tile's box is inside the
 * window and inside the list's visible part, and nothing (a banner, a notice, the "more keys" cue) lies over any of
 * its corners or its middle. At 1024 a 20-character name in the cart takes at most 2 lines. The quick keys are
 * there right after a manager's login on a counter that was loaded with nobody logged in (they once vanished:
 * „Нема брзих тастера“ with the sample catalog loaded).
 * Screenshots at both sizes in the test's output directory and, with KASA_SHOTS=<dir>, in
 * <dir>/counter-fold-<what>-<lang>-<width>.png.
 */
import type { Locator, Page } from '@playwright/test';
import type { Language } from '../../shared/domain.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { loadSample, sampleItems, scan } from './counter-support.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, loginFocused, shotsAndBack, TILL_SIZES } from './languages.ts';

/** A sample favourite whose name is 20 characters, one of them a 12-letter word. */
const LONG_NAME = 'Уље сунцокретово 1 л';

const shots = (page: Page, what: string, lang: Language): Promise<void> =>
  shotsAndBack(page, `counter-fold-${what}-${lang}`);

/** The quick keys wholly on screen, and the names of those that are not. */
async function wholeTiles(keys: Locator): Promise<{ whole: number; total: number; cut: string[] }> {
  return keys.evaluate((nav) => {
    const clip = nav.getBoundingClientRect();
    const tiles = [...nav.querySelectorAll('button')];
    const cut: string[] = [];
    let whole = 0;
    for (const tile of tiles) {
      const r = tile.getBoundingClientRect();
      const inside =
        r.width > 0 &&
        r.top >= Math.max(0, clip.top) - 0.5 &&
        r.left >= Math.max(0, clip.left) - 0.5 &&
        r.bottom <= Math.min(window.innerHeight, clip.bottom) + 0.5 &&
        r.right <= Math.min(window.innerWidth, clip.right) + 0.5;
      // What is drawn at its corners (inside the rounding) and its middle is the tile (no banner, notice or cue).
      const points: [number, number][] = [
        [r.left + 5, r.top + 5],
        [r.right - 5, r.top + 5],
        [r.left + 5, r.bottom - 5],
        [r.right - 5, r.bottom - 5],
        [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
      ];
      const uncovered =
        inside &&
        points.every(([x, y]) => {
          const at = document.elementFromPoint(x, y);
          return at !== null && tile.contains(at);
        });
      if (uncovered) whole += 1;
      else cut.push(tile.title);
    }
    return { whole, total: tiles.length, cut };
  });
}

async function expectTwelveWhole(page: Page, lang: Language, what: string): Promise<void> {
  const keys = page.getByRole('navigation', { name: uiMessages[lang].sale.quickKeys });
  await expect(keys.getByRole('button').first()).toBeVisible();
  for (const size of TILL_SIZES) {
    await page.setViewportSize(size);
    // Read until the counter has laid itself out for the new size (its resize handling re-renders after the
    // viewport changed); the last reading names the tiles cut.
    let fit = { whole: 0, total: 0, cut: [] as string[] };
    await expect
      .poll(async () => {
        fit = await wholeTiles(keys);
        return fit.total > 0 && fit.whole >= Math.min(12, fit.total);
      })
      .toBe(true)
      .catch(() => undefined);
    expect(fit.whole, `${what} at ${size.width}: whole tiles (cut: ${fit.cut.join(', ')})`).toBeGreaterThanOrEqual(
      Math.min(12, fit.total),
    );
  }
}

/** How many lines of text the element's text takes (distinct line boxes). */
async function textLines(el: Locator): Promise<number> {
  return el.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set<number>();
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    return tops.size;
  });
}

inEachLanguage((lang) => {
  test('twelve quick keys whole at 1024 and 1366, empty and 10-line cart, under an approval notice', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const ui = uiMessages[lang];
    await loadSample(kasa);
    // Loaded with nobody logged in (as a till starts): the manager logs in, the quick keys are there at once.
    await kasa.host.call('staff.logout', {});
    await page.reload();
    await loginFocused(page, lang);
    const keys = page.getByRole('navigation', { name: ui.sale.quickKeys });
    await expect(keys.getByRole('button')).toHaveCount(16);
    await expect(page.getByText(ui.sale.noCatalog)).toHaveCount(0);
    await expectTwelveWhole(page, lang, 'empty cart');
    await shots(page, 'empty', lang);

    // Ten lines, the last with a 20-character name.
    const items = sampleItems()
      .filter((i) => i.unit === 'kom' && i.barcode !== '' && i.name !== LONG_NAME)
      .slice(0, 9);
    const long = sampleItems().find((i) => i.name === LONG_NAME);
    if (!long) throw new Error(`no sample item ${LONG_NAME}`);
    for (const item of [...items, long]) await scan(page, item.barcode);
    const cart = page.getByRole('table', { name: ui.sale.cart });
    await expect(cart.getByTestId('cart-line')).toHaveCount(10);
    await expectTwelveWhole(page, lang, '10-line cart');
    await page.setViewportSize(TILL_SIZES[0]);
    const name = cart.getByTestId('cart-line').last().locator('td.name');
    await expect(name).toHaveText(LONG_NAME);
    expect(await textLines(name), `"${LONG_NAME}" at 1024`).toBeLessThanOrEqual(2);
    await shots(page, 'ten-lines', lang);

    // A discount beyond the limit, approved by the manager: the approval notice stays over the counter.
    await page.keyboard.press('F6');
    const discount = page.getByRole('dialog', { name: /./ });
    await discount.getByLabel(ui.dialog.discountAmount).fill('20%');
    await page.keyboard.press('Enter');
    const approval = page.getByRole('dialog', { name: ui.approval.title });
    await approval.getByLabel(ui.approval.pin).fill(MANAGER_PIN);
    await page.keyboard.press('Enter');
    await expect(page.getByText(ui.approval.approved.replace('{name}', ''), { exact: false })).toBeVisible();
    await expectTwelveWhole(page, lang, 'approval notice, 10-line cart');
    await shots(page, 'approved', lang);
    await page.keyboard.press('Control+Delete');
    await expect(cart).toHaveCount(0);
    await expectTwelveWhole(page, lang, 'approval notice, empty cart');
  });
});
