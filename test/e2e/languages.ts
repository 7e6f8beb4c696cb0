/**
 * What the specs that run in all three languages share: logging in and opening a manager tab by the names the
 * renderer's own catalogs give them in that language, and the page at both till sizes (photographed as
 * <dir>/<name>-<width>.png when KASA_SHOTS=<dir> is set).
 */
import type { Locator, Page } from '@playwright/test';
import type { Language } from '../../shared/domain.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { mt, type ManagerT, type ManagerText } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { keepShot, shotPath } from '../support/shots.ts';
import { expect, test } from './fixtures.ts';

export const LANGUAGES = ['sr-Cyrl', 'sr-Latn', 'en'] as const;

/** One of the three languages a till speaks. */
export type TillLanguage = (typeof LANGUAGES)[number];

/** What a spec's tests in each language run with besides the till's language. */
export interface InEachLanguageOptions {
  /** More of the host's environment (a terminal's id, a printer on the loopback). */
  env?: Record<string, string>;
  /** The browser's locale too: it draws the date fields, and a shop's computer is set to Serbian. */
  browserLocale?: boolean;
}

/**
 * The tests `body` declares, once in each language: a describe block named after the language whose host (the
 * till) speaks it, so that a spec's steps and checks are written once for all three.
 */
export function inEachLanguage(body: (lang: TillLanguage) => void): void;
export function inEachLanguage(options: InEachLanguageOptions, body: (lang: TillLanguage) => void): void;
export function inEachLanguage(
  first: InEachLanguageOptions | ((lang: TillLanguage) => void),
  second?: (lang: TillLanguage) => void,
): void {
  const options: InEachLanguageOptions = typeof first === 'function' ? {} : first;
  const body = typeof first === 'function' ? first : second;
  if (!body) throw new Error('inEachLanguage: no tests to declare');
  for (const lang of LANGUAGES) {
    test.describe(lang, () => {
      test.use({
        kasaEnv: { KASA_LANG: lang, ...options.env },
        ...(options.browserLocale ? { locale: lang === 'en' ? 'en-GB' : 'sr-RS' } : {}),
      });
      body(lang);
    });
  }
}

export const TILL_SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
] as const;

/** Types `pin` on the counter's login screen (`lang` being the till's language); returns the sale's search box. */
async function typePin(page: Page, lang: Language, pin: string): Promise<Locator> {
  const ui = uiMessages[lang];
  await page.getByRole('main', { name: ui.login.title }).getByLabel(ui.login.pin, { exact: true }).fill(pin);
  await page.keyboard.press('Enter');
  return page.getByRole('combobox', { name: ui.sale.search });
}

/** The manager logs in at the counter (`lang` being the till's language) and waits for the sale screen. */
export async function loginAt(page: Page, lang: Language): Promise<void> {
  await expect(await typePin(page, lang, MANAGER_PIN)).toBeVisible();
}

/**
 * The person with `pin` logs in at the counter (`lang` being the till's language), and the sale screen's search box
 * has the focus: a cashier starts scanning or typing at once.
 */
export async function loginFocused(page: Page, lang: Language, pin: string = MANAGER_PIN): Promise<void> {
  await expect(await typePin(page, lang, pin)).toBeFocused();
}

/** The manager screens' texts in `lang` as a `t` of their own (`t('tab_books')`), as the screens are given theirs. */
export function managerT(lang: Language): ManagerT {
  return (key, params) => mt(lang, key, params);
}

/** The manager logs in at the counter (`lang` being the till's language) and opens tab `tab`; returns the dialog. */
export async function openManagerTab(page: Page, lang: Language, tab: ManagerText): Promise<Locator> {
  await loginAt(page, lang);
  await page.getByRole('button', { name: mt(lang, 'open') }).click();
  const mgr = page.getByRole('dialog', { name: mt(lang, 'title') });
  await mgr.getByRole('tab', { name: mt(lang, tab) }).click();
  return mgr;
}

/** The window at both till sizes; `show` is scrolled into view at each size first. */
export async function shotsAtTillSizes(page: Page, name: string, show?: Locator): Promise<void> {
  await shotsAtSizes(page, name, TILL_SIZES, show);
}

/**
 * The window at each of `sizes`, `show` scrolled into view at each size first: the page is laid out at each size
 * whatever the run (a test may look at it there), and photographed as `<name>-<width>.png` (the whole page with
 * `fullPage`) when pictures were asked for (`KASA_SHOTS`, test/support/shots.ts).
 */
export async function shotsAtSizes(
  page: Page,
  name: string,
  sizes: readonly { width: number; height: number }[] = TILL_SIZES,
  show?: Locator,
  fullPage = false,
): Promise<void> {
  for (const size of sizes) {
    await page.setViewportSize(size);
    if (show) await show.scrollIntoViewIfNeeded();
    await keepShot(page, `${name}-${size.width}`, { fullPage });
  }
}

/** `shotsAtTillSizes`, then the page back at the size the test had (a test that goes on after its pictures). */
export async function shotsAndBack(page: Page, name: string): Promise<void> {
  const was = page.viewportSize();
  await shotsAtTillSizes(page, name);
  if (was) await page.setViewportSize(was);
}

/** The whole page (not only the window) at both till sizes as `<name>-<width>.png`, when pictures were asked for. */
export async function wholePageShots(page: Page, name: string): Promise<void> {
  if (shotPath(name) === null) return;
  await shotsAtSizes(page, name, TILL_SIZES, undefined, true);
}
