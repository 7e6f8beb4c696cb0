/**
 * Helpers for the counter e2e specs: the first-run PIN, logging in, the sample catalog, scanning, QR decoding,
 * approvals, the shift dialog, the printed paper, what fits the viewport, counting the cashier's keys, and the calls to
 * the till's core that several specs make (one that must succeed, a promotion, a product by its code).
 */
import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { expect, type Keyboard, type Locator, type Page } from '@playwright/test';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import type { FakeEpson } from '../printer/fake-epson.ts';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { Language, OrderView, ReceiptView } from '../../shared/domain.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { interpolate } from '../../shared/i18n/catalog.ts';
import type { KasaFixture } from './fixtures.ts';
import { ROOT } from '../support/host-process.ts';
import { loginFocused, openManagerTab } from './languages.ts';
import type { ManagerText } from '../../renderer/src/manager/i18n.ts';
import { shopDay } from './days.ts';
import { MANAGER_PIN } from '../support/session.ts';

export interface SampleItem {
  code: string;
  name: string;
  barcode: string;
  pricePara: number;
  unit: string;
}

/** The rows of resources/catalog/sample.csv (the catalog `catalog.loadSample` imports). */
export function sampleItems(): SampleItem[] {
  const [, ...rows] = fs.readFileSync(path.join(ROOT, 'resources/catalog/sample.csv'), 'utf8').trim().split('\n');
  return rows.map((r) => {
    const [code = '', name = '', barcode = '', price = '', , unit = ''] = r.split(';');
    return {
      code,
      name,
      barcode,
      pricePara: Math.round(Number(price.replace(/\./g, '').replace(',', '.')) * 100),
      unit,
    };
  });
}

/** Sample items sold by the piece, with a barcode, by code. */
export function pieceItem(code: string): SampleItem {
  const item = sampleItems().find((i) => i.code === code);
  if (!item?.barcode) throw new Error(`sample item ${code} has no barcode`);
  return item;
}

/** Serbian RSD text for para (1234567 -> "12.345,67"). */
export function rsd(para: number): string {
  const whole = Math.floor(para / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${whole},${String(para % 100).padStart(2, '0')}`;
}

/** A scanner: the code's digits as fast keystrokes, then Enter (wherever the focus is on the sale screen). */
export async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/** Decodes the QR code drawn on the receipt's canvas from a screenshot of it. */
export async function decodeReceiptQr(page: Page, name: string): Promise<string | null> {
  // Read again until it decodes: on a loaded machine the first picture can be taken while the image still loads.
  let data: string | null = null;
  await expect
    .poll(
      async () => {
        const png = PNG.sync.read(await page.getByRole('img', { name }).screenshot());
        data = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
        return data !== null;
      },
      { message: `the QR code „${name}“ decodes` },
    )
    .toBe(true);
  return data;
}

/** The manager's PIN the fixture set in place of the first-run 0000; it may also sell. */
export const DEFAULT_PIN = MANAGER_PIN;

/**
 * Logs a cashier in on the login screen the counter shows before anything can be sold (PIN + Enter),
 * and waits for the sale screen's search box to have the focus.
 */
export async function login(page: Page, pin: string = DEFAULT_PIN): Promise<void> {
  await enterPin(page, pin);
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
}

/** Logs the first-run manager in, opens the manager screens and the tab named `tab`; returns the dialog. */
export async function openManager(page: Page, tab: string): Promise<Locator> {
  // The counter asks for a cashier first; the first-run manager logs in.
  await login(page);
  await page.getByRole('button', { name: 'Менаџер (F11)' }).click();
  const mgr = page.getByRole('dialog', { name: 'Менаџер' });
  await mgr.getByRole('tab', { name: tab }).click();
  return mgr;
}

/** Types the PIN on the login screen and waits for the sale screen (for benchmarks: no assertions). */
export async function enterPin(page: Page, pin: string = DEFAULT_PIN): Promise<void> {
  const screen = page.getByRole('main', { name: 'Пријава касира' });
  await screen.getByLabel('PIN', { exact: true }).fill(pin);
  await page.keyboard.press('Enter');
  await page.getByRole('combobox', { name: 'Претрага или бар-код' }).waitFor({ state: 'visible' });
}

/**
 * F12 to the payment screen, then (optionally) `between` there, then F12 to complete. Each key waits for
 * the screen it acts on, so a fast keyboard never lands on a screen that is not there yet.
 */
export async function payWithKeys(
  page: Page,
  between?: () => Promise<void>,
  keyboard: Pick<Keyboard, 'press'> = page.keyboard,
): Promise<void> {
  await expect(page.getByTestId('cart-total')).not.toHaveText('0,00');
  await keyboard.press('F12');
  await expect(page.getByRole('main', { name: 'Плаћање' })).toBeVisible();
  if (between) await between();
  await keyboard.press('F12');
}

/**
 * The cashier's hands, counted: each key press, each typed character and each click through it adds one to
 * `count`. Waiting for the screen between them is not counted (the cashier looks, and does nothing).
 */
export class Keystrokes {
  count = 0;
  private readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }
  readonly keyboard = {
    press: async (key: string): Promise<void> => {
      this.count += 1;
      await this.page.keyboard.press(key);
    },
    type: async (text: string): Promise<void> => {
      this.count += [...text].length;
      await this.page.keyboard.type(text);
    },
  };
  async click(target: Locator): Promise<void> {
    this.count += 1;
    await target.click();
  }
}

/**
 * The first-run manager on the login screen: PIN 0000, then the new PIN typed twice. With `mistypedAs` the
 * second entry is first that typo: the login screen says the two differ, and both are typed again.
 */
export async function setNewManagerPin(page: Page, pin: string, mistypedAs?: string): Promise<void> {
  const screen = page.getByRole('main', { name: 'Пријава касира' });
  await screen.getByLabel('PIN', { exact: true }).fill('0000');
  await page.keyboard.press('Enter');
  const twice = async (second: string): Promise<void> => {
    await screen.getByLabel('Нови PIN', { exact: true }).fill(pin);
    await page.keyboard.press('Enter');
    await screen.getByLabel('Поновите нови PIN', { exact: true }).fill(second);
    await page.keyboard.press('Enter');
  };
  if (mistypedAs !== undefined) {
    await twice(mistypedAs);
    await expect(screen.getByText('PIN-ови се не поклапају: унесите нови PIN поново.')).toBeVisible();
  }
  await twice(pin);
}

/** The manager's PIN in the approval dialog the counter opens (a catalog change, a discount, …). */
export async function approveAsManager(page: Page, pin: string = MANAGER_PIN): Promise<void> {
  const prompt = page.getByRole('dialog', { name: 'Одобрење менаџера' });
  await prompt.getByLabel('PIN менаџера').fill(pin);
  await page.keyboard.press('Enter');
  await expect(prompt).toHaveCount(0);
}

/** The shift dialog, opened from the status bar's shift button (`Нема смене` or `Смена отворена`). */
export async function openShiftDialog(page: Page, button: 'Нема смене' | 'Смена отворена'): Promise<Locator> {
  await page.getByRole('button', { name: button }).click();
  return page.getByRole('dialog', { name: 'Смена и каса' });
}

/**
 * Opens a shift with `float` (typed as the cashier types it, e.g. `5.000,00`): the float field has the focus, and
 * opening returns to the sale with a notice that says the float.
 */
export async function openShift(page: Page, float: string): Promise<void> {
  const dialog = await openShiftDialog(page, 'Нема смене');
  await expect(dialog.getByLabel('Почетни депозит (RSD)')).toBeFocused();
  await dialog.getByLabel('Почетни депозит (RSD)').fill(float);
  await dialog.getByRole('button', { name: 'Отвори смену' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `почетни депозит ${float} RSD` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Смена отворена' })).toBeVisible();
}

/** Cash taken out of the drawer with the manager's PIN, in the open shift dialog; listed among its moves. */
export async function cashOut(dialog: Locator, amount: string, reason: string): Promise<void> {
  const moves = dialog.getByRole('form', { name: 'Полози и подизања' });
  await moves.getByLabel('Врста').selectOption('out');
  await moves.getByLabel('Износ (RSD)').fill(amount);
  await moves.getByLabel('Разлог').fill(reason);
  await moves.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await moves.getByRole('button', { name: 'Евидентирај' }).click();
  await expect(dialog.getByRole('list', { name: 'Полози и подизања' })).toContainText(
    `Подизање: ${amount} RSD — ${reason}`,
  );
}

/** What came out on a fake printer's paper, decoded with the project's ESC/POS decoder for its profile. */
export function paperLines(printer: FakeEpson, profileId: string): string[] {
  const profile = findPreset(profileId);
  if (!profile) throw new Error(`no printer profile ${profileId}`);
  return decodeEscPos(printer.paper(), { codePages: codePageNumbers(profile) }).lines;
}

/** The quick keys end inside the viewport; when more are hidden, the list scrolls and says so. */
export async function expectQuickKeysFit(page: Page, size: { width: number; height: number }): Promise<void> {
  const keys = page.getByRole('navigation', { name: 'Брзи тастери' });
  const box = await keys.boundingBox();
  expect(box, `quick keys at ${size.width}`).not.toBeNull();
  expect(box!.y + box!.height, `quick keys bottom at ${size.width}`).toBeLessThanOrEqual(size.height);
  expect(box!.x + box!.width, `quick keys right at ${size.width}`).toBeLessThanOrEqual(size.width);
  const more = await keys.evaluate((el) => el.scrollHeight > el.clientHeight);
  if (more) await expect(page.getByText('▼ још брзих тастера')).toBeVisible();
}

/**
 * The status bar is inside the viewport, nothing in it overflows, and it is one line: one horizontal line
 * crosses every piece of its text (a wrapped pill, or a second row of pills, would not).
 */
export async function expectStatusBarFits(page: Page, size: { width: number; height: number }): Promise<void> {
  const bar = page.getByRole('status', { name: 'Статус' });
  const box = await bar.boundingBox();
  expect(box, `status bar at ${size.width}`).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `status bar right at ${size.width}`).toBeLessThanOrEqual(size.width);
  expect(box!.y + box!.height, `status bar bottom at ${size.width}`).toBeLessThanOrEqual(size.height);
  const shape = await bar.evaluate((el) => {
    const rects: DOMRect[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if ((n.textContent ?? '').trim() === '') continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) rects.push(r);
    }
    return {
      overflows: el.scrollWidth > el.clientWidth,
      lowestTop: Math.max(...rects.map((r) => r.top)),
      highestBottom: Math.min(...rects.map((r) => r.bottom)),
      pieces: rects.length,
    };
  });
  expect(shape.pieces, `status bar text at ${size.width}`).toBeGreaterThan(0);
  expect(shape.overflows, `status bar overflows at ${size.width}`).toBe(false);
  expect(shape.lowestTop, `status bar on one line at ${size.width}`).toBeLessThan(shape.highestBottom);
}

/**
 * Sells two hand-typed loaves (89,90, label A, offered from the gateway's tax rates) for 200 in cash:
 * change 20,20, the receipt screen shows the order fiscalized.
 */
export async function sellHandTypedBread(page: Page): Promise<void> {
  await page.keyboard.press('F3');
  const manual = page.getByRole('dialog', { name: 'Ручни унос ставке' });
  await manual.getByLabel('Назив').fill('Хлеб домаћи');
  await manual.getByLabel('Јединична цена (RSD)').fill('89,90');
  await manual.getByLabel('Количина').fill('2');
  // The labels offered are the gateway's (demo group), never hard-coded ones.
  const labels = await manual.getByLabel('Пореска ознака').locator('option').allTextContents();
  expect(labels.join(' ')).toContain('Ж');
  await manual.getByLabel('Пореска ознака').selectOption('A');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cart-total')).toHaveText('179,80');

  await page.keyboard.press('F12');
  await page.getByLabel('Готовина', { exact: true }).fill('200');
  await expect(page.getByTestId('change')).toHaveText('20,20');
  await page.keyboard.press('F12');
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
}

/**
 * The payment screen's F12 ends the sale with no manager's approval asked (a rule's discount is the shop's, not the
 * cashier's: docs/prices.md); returns the sale's order once its receipt's journal, read as one line (it wraps long
 * names), holds `journalHas`.
 */
export async function paidWithoutApproval(
  kasa: KasaFixture,
  lang: Language,
  journalHas: string,
): Promise<OrderView | undefined> {
  const { page } = kasa;
  await page.keyboard.press('F12');
  await expect(page.getByTestId('receipt-state')).toBeVisible();
  await expect(page.getByRole('dialog', { name: uiMessages[lang].approval.title })).toHaveCount(0);
  let order: OrderView | undefined;
  await expect
    .poll(async () => {
      const r = await kasa.host.call<{ orders: OrderView[] }>('orders.list', { limit: 1 });
      order = r.body.value?.orders[0];
      return (order?.receipt?.journal ?? '').replace(/\s+/g, ' ');
    })
    .toContain(journalHas);
  return order;
}

/** The cart's rows of `items`, in that order from the first line (named as the counter names them in `lang`). */
export function cartRows(page: Page, lang: Language, items: readonly SampleItem[]): Locator[] {
  const ui = uiMessages[lang];
  const cart = page.getByRole('region', { name: ui.sale.cart });
  return items.map((it, i) =>
    cart.getByRole('row', { name: interpolate(ui.sale.line, { index: i + 1, name: it.name }) }),
  );
}

/** What a cart line priced by a rule says under its name: the rule, and the regular price it replaces. */
export function ruleNote(lang: Language, rule: string, wasPara: number): string {
  return `${rule} · ${interpolate(uiMessages[lang].sale.priceWas, { was: rsd(wasPara) })}`;
}

/** A call to the till's core that must succeed (its answer is the failure's message when it does not). */
export async function callOk(kasa: KasaFixture, name: string, input: unknown): Promise<void> {
  const r = await kasa.host.call(name, input);
  expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
}

/** The longest names a shop may give (the setup flow allows 60 characters): the header must keep them on one line. */
export const LONGEST_NAMES = {
  shopName: 'Продавница мешовите робе „Код Мике и Жике“ — Нови Београд',
  tillName: 'Каса 2 поред излога',
} as const;

/** The shop and the till named with LONGEST_NAMES by the manager. */
export async function nameShopLongest(kasa: KasaFixture): Promise<void> {
  await callOk(kasa, 'settings.update', { managerPin: MANAGER_PIN, ...LONGEST_NAMES });
}

/** The sample catalog (resources/catalog/sample.csv) loaded into the till, approved by the manager. */
export async function loadSample(kasa: KasaFixture): Promise<void> {
  await callOk(kasa, 'catalog.loadSample', { approval: { managerPin: MANAGER_PIN } });
}

/**
 * A price promotion of the item of `code` from the shop's today for 20 days (an „акцијска продаја“ lasts at most 31:
 * docs/prices.md), put by the manager.
 */
export async function putPromotion(
  kasa: KasaFixture,
  promotion: { name: string; priority: number; code: string; price: number },
): Promise<void> {
  await callOk(kasa, 'prices.promotionPut', {
    managerPin: MANAGER_PIN,
    ...promotion,
    kind: 'price',
    fromDay: shopDay(new Date()),
    toDay: shopDay(new Date(Date.now() + 20 * 86_400_000)),
  });
}

/** The product with this code as the till's catalog has it. */
export async function catalogProduct(kasa: KasaFixture, code: string): Promise<ProductView> {
  const r = await kasa.host.call<{ products: ProductView[] }>('catalog.list', { query: code, limit: 5 });
  const p = r.body.value?.products.find((x) => x.code === code);
  if (!p) throw new Error(`no product ${code}`);
  return p;
}

/**
 * The sample catalog loaded, the counter reloaded and logged in (the manager, or the person with `pin`) in `lang`, the
 * till's language (Cyrillic unless named); returns the page, its search box focused.
 */
export async function readyToSell(
  kasa: KasaFixture,
  { pin = DEFAULT_PIN, lang = 'sr-Cyrl' }: { pin?: string; lang?: Language } = {},
): Promise<Page> {
  await loadSample(kasa);
  await kasa.page.reload();
  await loginFocused(kasa.page, lang, pin);
  return kasa.page;
}

/**
 * The sample catalog loaded and the counter reloaded, then the manager logs in (in `lang`, the till's language) and
 * opens tab `tab`; returns the manager's dialog.
 */
export async function managerTabOnSample(kasa: KasaFixture, lang: Language, tab: ManagerText): Promise<Locator> {
  await loadSample(kasa);
  await kasa.page.reload();
  return openManagerTab(kasa.page, lang, tab);
}

/** The till's newest order, as `orders.list` returns it. */
export async function lastOrder(kasa: KasaFixture): Promise<OrderView> {
  const r = await kasa.host.call<{ orders: OrderView[] }>('orders.list', { limit: 1 });
  const order = r.body.value?.orders[0];
  if (!order) throw new Error('no order');
  return order;
}

/**
 * The till's newest order and its fiscal receipt, the receipt screen checked against it: the QR code drawn there
 * decodes to the receipt's verification URL.
 */
export async function lastReceiptShown(kasa: KasaFixture): Promise<{ order: OrderView; receipt: ReceiptView }> {
  const order = await lastOrder(kasa);
  const { receipt } = order;
  if (!receipt) throw new Error('the order has no receipt');
  expect(await decodeReceiptQr(kasa.page, 'QR код рачуна')).toBe(receipt.verificationUrl);
  return { order, receipt };
}

/** A cashier made by the manager: Ана Анић, PIN 1111 unless named otherwise. */
export async function addCashier(kasa: KasaFixture, name = 'Ана Анић', pin = '1111'): Promise<void> {
  await callOk(kasa, 'staff.create', { managerPin: MANAGER_PIN, name, role: 'cashier', pin });
}

/**
 * The element's visible children share one row and end inside the viewport; nothing overflows it. With `items`, no
 * child's own content spills out of it either (it would overlap its neighbour).
 */
export async function expectOneLine(el: Locator, width: number, what: string, items = false): Promise<void> {
  const fit = await el.evaluate((node) => {
    const boxes = [...node.children].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    return {
      lowestTop: Math.max(...boxes.map((r) => r.top)),
      highestBottom: Math.min(...boxes.map((r) => r.bottom)),
      right: Math.max(...boxes.map((r) => r.right)),
      overflows: node.scrollWidth > node.clientWidth,
      spills: [...node.children].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
    };
  });
  if (items) expect(fit.spills, `${what} at ${width}: an item spills over its neighbour`).toEqual([]);
  expect(fit.lowestTop, `${what} at ${width}: one row`).toBeLessThan(fit.highestBottom);
  expect(fit.right, `${what} at ${width}: inside the window`).toBeLessThanOrEqual(width);
  expect(fit.overflows, `${what} at ${width}: overflows`).toBe(false);
}
