/**
 * Issue 40 part 9 in Chromium (a hub child process on PGlite, a till enrolled at it as a browser host): Менаџер →
 * Роба says which sections act on the hub's book and which are the till's own (three languages); Пријемнице saves a
 * draft AT THE HUB (seen there through the admin API, nothing on the till's own book), a line the hub does not know
 * is refused under the lines in the user's words; Пописи enters a counted quantity into the hub's open count, seen
 * in the count at the hub. Screenshots at 1024×768 and 1366×768 when KASA_SHOTS names a folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { HubCountView } from '../../shared/hub/count-protocol.ts';
import type { HubReceipt } from '../../shared/hub/goods-protocol.ts';
import type { Language } from '../../shared/domain.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import type { HostProcess } from '../support/host-process.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { LANGUAGES, managerT, openManagerTab, shotsAtTillSizes } from './languages.ts';
import { enrolledTill } from './hub-support.ts';

const ADMIN = 'e2e-till-goods-hub-admin-token-0123456789';
let hub: HubProcess;
let till: HostProcess;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-till-goods-hub-e2e-'));
const MILK = { code: '3001', name: 'Млеко 1 л', group: 'Млечни', label: 'E', unit: 'piece', pricePara: 15_000 };

async function admin<T>(method: string, route: string, body?: unknown): Promise<T> {
  const r = await fetch(`${hub.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  expect(r.status, text).toBeLessThan(300);
  return JSON.parse(text) as T;
}

test.beforeAll(async () => {
  hub = await startHubProcess({ KASA_HUB_DATA: path.join(dir, 'hub'), KASA_HUB_ADMIN_TOKEN: ADMIN });
  await admin('PUT', '/api/admin/products', { shopId: hub.shopId, products: [MILK] });
  till = await enrolledTill(hub, 'TGHE2E');
  // The hub's catalog pulled, and a supplier in the till's register (the receipt form names one).
  await expect(async () => {
    const r = await till.call<{ code: string }[]>('catalog.search', { query: MILK.code });
    expect(r.body.value?.[0]?.code).toBe(MILK.code);
  }).toPass({ timeout: 30_000 });
  const supplier = await till.call('suppliers.put', { name: 'Млекара Рума', pib: '101134702' });
  expect(supplier.body.ok, JSON.stringify(supplier.body)).toBe(true);
});
test.afterAll(async () => {
  await till?.stop();
  await hub?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  if (till) fs.rmSync(till.dataDir, { recursive: true, force: true });
});

test('an enrolled till saves a receipt draft at the hub and counts into the hub’s count', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`${till.url}#token=${till.token}`);
  const lang: Language = 'sr-Cyrl';
  const t = managerT(lang);
  const mgr = await openManagerTab(page, lang, 'tab_goods');
  await expect(mgr.getByTestId('goods-book-note')).toContainText(t('goods_hub_sections'));

  await mgr.getByRole('button', { name: t('goods_receipts') }).click();
  await expect(mgr.getByRole('heading', { name: t('hub_goods_receipt_new') })).toBeVisible();
  await mgr.getByRole('combobox', { name: t('goods_supplier') }).selectOption({ label: 'Млекара Рума' });
  await mgr.getByLabel(t('goods_invoice_number'), { exact: true }).fill('MR-77');
  const lineForm = mgr.getByRole('form', { name: t('goods_line') });
  const addLine = async (code: string) => {
    await lineForm.getByLabel(t('goods_code_or_barcode')).fill(code);
    await lineForm.getByLabel(t('goods_quantity')).fill('12');
    await lineForm.getByLabel(t('goods_purchase_price')).fill('100,00');
    await lineForm.getByLabel(t('goods_retail_price')).fill('150,00');
    await lineForm.getByRole('button', { name: t('goods_add_line') }).click();
  };
  // A product the hub does not carry: refused under the lines in the user's words, nothing saved.
  await addLine('9999');
  await mgr.getByRole('button', { name: t('hub_goods_save') }).click();
  await expect(mgr.locator('#hub-receipt-lines-error')).toContainText('9999');
  await shotsAtTillSizes(page, 'till-goods-hub-receipt-refused');
  await mgr.getByRole('button', { name: t('goods_remove_line', { code: '9999' }) }).click();
  await addLine(MILK.code);
  await mgr.getByRole('button', { name: t('hub_goods_save') }).click();
  // The till sends the draft in the background: read the hub until it is there (a loaded machine answers later).
  let saved: { receipts: HubReceipt[] } = { receipts: [] };
  let draft: HubReceipt | undefined;
  await expect
    .poll(async () => {
      saved = await admin<{ receipts: HubReceipt[] }>('GET', `/api/admin/goods/receipts?shopId=${hub.shopId}`);
      draft = saved.receipts.find((r) => r.invoiceNumber === 'MR-77');
      return draft?.state;
    })
    .toBe('draft');
  expect(draft?.draft?.lines).toEqual([{ code: MILK.code, qtyMilli: 12_000, purchasePara: 10_000, pricePara: 15_000 }]);
  expect(saved.receipts.filter((r) => r.invoiceNumber === '9999' || r.invoiceNumber === 'MR-77')).toHaveLength(1);
  await expect(mgr.getByRole('status')).toHaveText(t('hub_goods_saved_at_hub', { id: String(draft?.id) }));
  const drafts = mgr.getByRole('table', { name: t('hub_goods_drafts') });
  await expect(drafts.getByRole('row', { name: /MR-77/ })).toContainText(
    t('hub_goods_state_at_hub', { id: String(draft?.id) }),
  );
  await shotsAtTillSizes(page, 'till-goods-hub-receipt', drafts);

  // A count started at the hub; the till enters a counted quantity into it.
  const count = await admin<HubCountView>('POST', '/api/admin/goods/counts', { shopId: hub.shopId });
  await mgr.getByRole('button', { name: t('goods_counts') }).click();
  const entry = mgr.getByRole('form', { name: t('hub_goods_count_entry') });
  await expect(entry.getByLabel(t('hub_goods_count'))).toContainText(count.number);
  await entry.getByLabel(t('goods_code_or_barcode')).fill(MILK.code);
  await entry.getByLabel(t('goods_counted')).fill('7');
  await entry.getByRole('button', { name: t('hub_goods_count_enter') }).click();
  await expect(mgr.getByRole('status')).toContainText(MILK.name);
  const atHub = await admin<HubCountView>(
    'GET',
    `/api/admin/goods/counts/view?shopId=${hub.shopId}&countId=${count.id}`,
  );
  expect(atHub.lines.find((l) => l.code === MILK.code)?.countedMilli).toBe(7_000);
  await expect(mgr.getByRole('table', { name: t('hub_goods_entries') })).toContainText(t('hub_goods_entry_sent'));
  await shotsAtTillSizes(page, 'till-goods-hub-count');

  // The other two languages: the note and both sections in their words.
  let shown: Language = lang;
  for (const other of LANGUAGES.filter((l) => l !== lang)) {
    // Back at the counter, the status bar's language choice, then Менаџер → Роба again.
    await page.keyboard.press('Escape');
    await page.getByLabel(uiMessages[shown].status.language).selectOption(other);
    shown = other;
    await page.getByRole('button', { name: mt(other, 'open') }).click();
    const m = page.getByRole('dialog', { name: mt(other, 'title') });
    await m.getByRole('tab', { name: mt(other, 'tab_goods') }).click();
    await expect(m.getByTestId('goods-book-note')).toContainText(mt(other, 'goods_hub_sections'));
    await m.getByRole('button', { name: mt(other, 'goods_receipts') }).click();
    const list = m.getByRole('table', { name: mt(other, 'hub_goods_drafts') });
    await expect(list).toContainText('MR-77');
    await shotsAtTillSizes(page, `till-goods-hub-receipt-${other}`, list);
    await m.getByRole('button', { name: mt(other, 'goods_counts') }).click();
    await expect(m.getByRole('table', { name: mt(other, 'hub_goods_entries') })).toContainText(
      mt(other, 'hub_goods_entry_sent'),
    );
    await shotsAtTillSizes(page, `till-goods-hub-count-${other}`);
  }
});
