/**
 * A sale the L-PFR cannot vouch for (issue 37 §1, docs/lpfr.md "One signature per sale"), through the browser host
 * and a real L-PFR sandbox that remembers only its latest RequestId. The till's request is cut before the device
 * read it, its look-ups fail while another till (this test, on the same L-PFR) signs; the look-up then finds
 * nothing and the device's counter has moved, so the till parks the sale instead of signing it again. The manager
 * reads why, in words, in Менаџер → Потребна пажња, confirms the journal has no receipt of it, enters the PIN,
 * and the sale is signed exactly once. In all three languages, with screenshots at both till sizes (in the test's
 * output directory and, when KASA_SHOTS=<dir> is set, <dir>/lpfr-unproven-<lang>-<width>.png).
 */
import { startLpfrSandbox, type LpfrSandbox } from '../support/lpfr-sandbox/server.ts';
import type { OrderView, SyncStatus } from '../../shared/domain.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { invoice, rawSign } from '../lpfr/helpers.ts';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { callOk } from './counter-support.ts';
import { inEachLanguage, openManagerTab, shotsAtTillSizes } from './languages.ts';

const CARD_PIN = '1234';
const sandboxes: LpfrSandbox[] = [];
test.afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.close();
});

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await probe();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

/** The L-PFR set up, the gateway offline and known to be, and a sale parked unproven; returns it. */
async function parkedUnproven(kasa: KasaFixture): Promise<{ lpfr: LpfrSandbox; order: OrderView }> {
  const lpfr = await startLpfrSandbox({ port: 0, pin: CARD_PIN, keepRequests: 1 });
  sandboxes.push(lpfr);
  await callOk(kasa, 'settings.setLpfr', { managerPin: MANAGER_PIN, url: lpfr.url, pin: CARD_PIN });
  await kasa.sandbox('offline', { offline: true });
  await until(
    'offline with the L-PFR ready',
    async () => (await kasa.host.call<SyncStatus>('sync.now', {})).body.value,
    (s) => s?.online === false && s.lpfr === 'ready',
  );
  lpfr.controls.setFaults([
    { match: 'POST /api/v3/invoices', action: 'drop_before', times: 1 },
    { match: 'GET /api/v3/invoices/', action: 'error500' },
  ]);
  const sale = await kasa.host.call<{ orderId: number }>('sales.checkout', {
    lines: [{ name: 'Хлеб', quantity: 1, unitPrice: 80, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 80 }],
  });
  const orderId = sale.body.value?.orderId ?? 0;
  await until(
    'the sale in doubt',
    async () => (await kasa.host.call<OrderView>('orders.get', { orderId })).body.value,
    (o) => o?.unknown === true,
  );
  // Another till on the same L-PFR signs meanwhile.
  expect((await rawSign(lpfr.url, invoice(), { RequestId: 'OTHER-TILL-1' })).status).toBe(200);
  lpfr.controls.setFaults([]);
  const order = await until(
    'parked unproven',
    async () => {
      await kasa.host.call('sync.now', {});
      return (await kasa.host.call<OrderView>('orders.get', { orderId })).body.value;
    },
    (o) => o?.state === 'needs_attention',
  );
  if (!order) throw new Error('no order');
  expect(order.lastError?.code).toBe('LPFR_UNPROVEN');
  return { lpfr, order };
}

inEachLanguage({ env: { KASA_TERMINAL_ID: 'UNPROVEN' } }, (lang) => {
  test('the manager reads why the L-PFR cannot vouch for a sale, checks its journal, and it is signed once', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const { lpfr, order } = await parkedUnproven(kasa);
    await page.reload();
    const mgr = await openManagerTab(page, lang, 'tab_attention');
    const item = mgr.getByRole('listitem', { name: mt(lang, 'attention_order', { order: order.orderNumber }) });
    // Why, in words: the order and the device's counter before the signing (0) and now (1); no code, no English.
    await expect(item).toContainText(order.orderNumber);
    await expect(item).toContainText(/\b0\b\D+\b1\b/);
    await expect(item).not.toContainText('LPFR_UNPROVEN');
    await expect(item).not.toContainText('RequestId');
    const sign = item.getByRole('button', { name: mt(lang, 'lpfr_not_signed', { order: order.orderNumber }) });
    await expect(sign).toBeDisabled();
    await expect(
      item.getByRole('button', { name: mt(lang, 'lpfr_look_again', { order: order.orderNumber }) }),
    ).toBeVisible();
    await item.getByRole('checkbox', { name: mt(lang, 'lpfr_journal_checked', { order: order.orderNumber }) }).check();
    await item.getByLabel(mt(lang, 'manager_pin')).fill(MANAGER_PIN);
    await expect(sign).toBeEnabled();
    await shotsAtTillSizes(page, `lpfr-unproven-${lang}`);
    await page.setViewportSize({ width: 1280, height: 800 });

    await sign.click();
    await expect(
      mgr.getByRole('status').filter({ hasText: mt(lang, 'lpfr_signing', { order: order.orderNumber }) }),
    ).toBeVisible();
    const done = await until(
      'signed',
      async () => {
        await kasa.host.call('sync.now', {});
        return (await kasa.host.call<OrderView>('orders.get', { orderId: order.orderId })).body.value;
      },
      (o) => o?.state === 'fiscalized',
    );
    expect(done?.processor).toBe('lpfr');
    const signed = lpfr.controls.ledger().invoices.filter((e) => e.requestId === order.orderNumber);
    expect(signed).toHaveLength(1);
  });
});
