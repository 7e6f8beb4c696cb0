/**
 * A till enrolled later brings its own goods book to the hub (docs/goods.md "A till enrolled later brings its
 * book"), in Chromium through the browser host and a real core, against a hub process on PGlite over HTTPS, in three
 * languages: a lone till posts a receipt, is enrolled into a shop of its own (its catalog adopted), and its manager
 * brings the book over from the Хаб tab with a PIN; the hub's book then holds the till's stock as a numbered
 * opening document, and the tab says so. Screenshots at both till sizes (KASA_SHOTS=<dir>).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReceiptView, SupplierView } from '../../shared/contract/goods.ts';
import type { HubStockView } from '../../shared/hub/goods-protocol.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { adminRequest, startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { expect, test } from './fixtures.ts';
import { LANGUAGES, openManagerTab, shotsAtTillSizes } from './languages.ts';

let hub: HubProcess;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-goods-opening-e2e-'));

test.beforeAll(async () => {
  hub = await startHubProcess(
    { KASA_HUB_DATA: path.join(dir, 'hub'), KASA_HUB_ADMIN_TOKEN: 'e2e-admin-token-goods-opening-0123456789ab' },
    { enrolCode: false },
  );
});
test.afterAll(async () => {
  await hub?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const admin = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
  const r = await adminRequest(hub, method, route, body);
  expect(r.status, route).toBeLessThan(300);
  return (await r.json()) as T;
};

for (const [i, lang] of LANGUAGES.entries()) {
  test.describe(lang, () => {
    test.use({
      kasaEnv: { KASA_LANG: lang, KASA_TERMINAL_ID: `GOODS${i}` },
      locale: lang === 'en' ? 'en-GB' : 'sr-RS',
    });

    test('a till enrolled later brings its goods book to the hub from the Хаб tab', async ({ kasa }) => {
      const { page, host } = kasa;
      // The till's own book: a receipt of two products, posted while it keeps its goods alone.
      const supplier = await host.call<SupplierView>('suppliers.put', {
        managerPin: MANAGER_PIN,
        name: 'Добављач д.о.о.',
        pib: '113460262',
      });
      const draft = await host.call<ReceiptView>('goods.receiptSave', {
        managerPin: MANAGER_PIN,
        supplierId: supplier.body.value?.id,
        invoiceNumber: 'F-1',
        invoiceDate: '2026-11-20',
        lines: [
          { code: 'S1', name: 'Сок', label: 'A', unit: 'piece', quantity: 5, purchasePrice: 100, retailPrice: 150 },
          { code: 'S2', name: 'Чај', label: 'A', unit: 'piece', quantity: 3, purchasePrice: 50, retailPrice: 90 },
        ],
      });
      const posted = await host.call('goods.receiptPost', { managerPin: MANAGER_PIN, id: draft.body.value?.id });
      expect(posted.body.ok, JSON.stringify(posted.body)).toBe(true);
      // Enrolled into a shop of its own that has no goods: its catalog comes with it.
      const { shopId } = await admin<{ shopId: number }>('POST', '/api/admin/shops', { name: `Продавница ${lang}` });
      const { code } = await admin<{ code: string }>('POST', '/api/admin/enrol-codes', { shopId });
      const enrolled = await host.call('hub.enrol', {
        managerPin: MANAGER_PIN,
        url: hub.url,
        code,
        ...(hub.fingerprint ? { fingerprint: hub.fingerprint } : {}),
      });
      expect(enrolled.body.ok, JSON.stringify(enrolled.body)).toBe(true);

      const mgr = await openManagerTab(page, lang, 'tab_hub');
      const form = mgr.getByRole('form', { name: mt(lang, 'hub_goods_choice') });
      await expect(form).toContainText(mt(lang, 'hub_goods_choice_text', { lines: 2 }));
      await form.getByLabel(mt(lang, 'manager_pin')).fill(MANAGER_PIN);
      await shotsAtTillSizes(page, `hub-goods-opening-choice-${lang}`, form);
      await form.getByRole('button', { name: mt(lang, 'hub_goods_bring') }).click();
      const year = new Date().getFullYear();
      await expect(mgr.getByRole('status')).toHaveText(mt(lang, 'hub_goods_brought_note', { number: `1/${year}` }));
      await expect(form).toContainText(
        mt(lang, 'hub_goods_brought_text', { number: `1/${year}`, at: '' }).split(' (')[0] ?? '',
      );
      await expect(form.getByRole('button', { name: mt(lang, 'hub_goods_bring') })).toHaveCount(0);
      await shotsAtTillSizes(page, `hub-goods-opening-done-${lang}`, form);

      const stock = await admin<HubStockView>('GET', `/api/admin/goods/stock?shopId=${shopId}`);
      expect(stock.rows.map((r) => [r.code, r.qtyMilli, r.pricePara, r.purchasePara])).toEqual([
        ['S1', 5_000, 15_000, 10_000],
        ['S2', 3_000, 9_000, 5_000],
      ]);
    });
  });
}
