/** Helpers for the counter e2e specs: logging in, the sample catalog, scanning, QR decoding. */
import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { expect, type Locator, type Page } from '@playwright/test';
import { ROOT } from '../support/host-process.ts';
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
  const png = PNG.sync.read(await page.getByRole('img', { name }).screenshot());
  const result = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return result?.data ?? null;
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
export async function payWithKeys(page: Page, between?: () => Promise<void>): Promise<void> {
  await expect(page.getByTestId('cart-total')).not.toHaveText('0,00');
  await page.keyboard.press('F12');
  await expect(page.getByRole('main', { name: 'Плаћање' })).toBeVisible();
  if (between) await between();
  await page.keyboard.press('F12');
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
