/**
 * A tax label listed in the account's tax rates that its secure element refuses (the gateway's spec, "Tax labels":
 * not every listed label is enabled; the Tax Administration answers ERR_01010 with reason 2310). The sandbox's demo
 * account lists Ж (19 %) and refuses it, as the demo accounts do. The first sale under it ends in "needs attention",
 * told to the cashier in her language; from then on the till refuses Ж up front (a sale line, a product of its
 * catalog) and stops reporting it to the hub, whose product form refuses it at the field (docs/goods.md, "A label
 * the Tax Administration refuses"). A real till (SQLite, the sandbox over HTTP) and a real hub over HTTP (PGlite).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { explainGatewayError } from '../../shared/gateway-errors.ts';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import type { OrderView } from '../../shared/domain.ts';
import { message } from '../../shared/messages.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { ok, until } from '../support/core-calls.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { BACKENDS } from './backends.ts';
import { openSandboxTill, tillRig } from './till-rig.ts';

const ADMIN_TOKEN = 'kasa-test-admin-token-refused-label-0123';
const REFUSED = 'Ж';

/** A sale of one piece of `productId` at 100,00 under `label`; the command's answer, refused or not. */
const sellUnder = (core: Core, label: string, productId?: number) =>
  core.dispatch('sales.checkout', {
    lines: [{ name: 'Сок', quantity: 1, unitPrice: 100, labels: [label], ...(productId ? { productId } : {}) }],
    payments: [{ type: 'cash', amount: 100 }],
  }) as Promise<{ ok: boolean; value?: CheckoutResult; error?: { code: string; field?: string; message?: string } }>;

/** Waits until the order is parked for a person and returns it. */
async function parked(core: Core, orderId: number): Promise<OrderView> {
  let order: OrderView | undefined;
  await until(async () => {
    order = await ok<OrderView>(core, 'orders.get', { orderId });
    return order.state === 'needs_attention';
  });
  return order as OrderView;
}

describe('a label the Tax Administration refuses, at a till enrolled at a hub (pglite)', () => {
  const backend = BACKENDS.find((b) => b.name === 'pglite');
  if (!backend) throw new Error('no pglite backend');
  const rig = tillRig(backend, ADMIN_TOKEN);
  const hub = rig.hub;
  let till: Core;
  const putProduct = (label: string) =>
    hub.admin('PUT', '/api/admin/products', {
      shopId: rig.shopId,
      products: [{ code: 'S2', name: 'Сок од наранџе', pricePara: 10_000, label, unit: 'piece' }],
    });

  beforeAll(async () => {
    await hub.service.upsertProducts(rig.shopId, [
      { code: 'S1', name: 'Сок од јабуке', pricePara: 10_000, label: 'A', unit: 'piece' },
    ]);
    const env = { KASA_HUB_URL: hub.url, KASA_HUB_ENROL_CODE: await hub.service.newEnrolCode(rig.shopId) };
    ({ core: till } = await rig.openTill('LBL1', { env }));
    await until(() => till.db.prepare("SELECT 1 FROM products WHERE code = 'S1'").get() !== undefined);
    await ok(till, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await ok(till, 'staff.login', { pin: MANAGER_PIN });
  }, 120_000);

  it('the first refusal is told in the cashier language; then the till and the hub refuse Ж up front', async () => {
    // Before any refusal the hub takes Ж: the till reports it among the current labels, as the gateway lists it.
    await until(async () => (await putProduct(REFUSED)).status === 200);
    const product = till.db.prepare<[], { id: number }>("SELECT id FROM products WHERE code = 'S1'").get();
    const sold = await sellUnder(till, REFUSED, product?.id);
    expect(sold.ok, JSON.stringify(sold)).toBe(true);
    const order = await parked(till, sold.value?.orderId ?? 0);
    expect(order.lastError).toMatchObject({ code: 'ERR_01010', reason: '2310' });
    const said = explainGatewayError(order.lastError ?? { status: null, code: null, message: '' }, 'sr-Cyrl');
    expect(said.title).toBe('Пореска управа је одбила пореску ознаку: није омогућена за овај налог (шифра 2310).');

    // The till refuses a sale line under Ж at its field, saying why; a line under A still sells.
    const again = await sellUnder(till, REFUSED, product?.id);
    expect(again.ok).toBe(false);
    expect(again.error).toMatchObject({ code: 'invalid_input', field: 'lines.0.labels.0' });
    expect(again.error?.message).toBe(
      message('en', 'label_refused', { value: REFUSED, labels: 'A, F, E, B, N, C, P, T' }),
    );
    expect((await sellUnder(till, 'A', product?.id)).ok).toBe(true);
    // Its tax-rate view still lists Ж as the gateway does; a new item does not start with it.
    const rates = await ok<{ labels: { label: string }[]; usualLabel?: string }>(till, 'taxRates.get', {});
    expect(rates.labels.map((l) => l.label)).toContain(REFUSED);
    expect(rates.usualLabel).not.toBe(REFUSED);

    // The hub hears it with the till's next status and refuses a product under Ж at its field.
    await until(async () => (await putProduct(REFUSED)).status === 400);
    const refused = await putProduct(REFUSED);
    expect(await refused.json()).toMatchObject({ code: 'label_not_current', field: 'products.0.label' });
    expect((await putProduct('A')).status).toBe(200);
  }, 120_000);
});

describe('a label the Tax Administration refuses, at a lone till', () => {
  let sandbox: Sandbox;
  let till: Core;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-refused-label-'));
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    till = await openSandboxTill(dir, 'LBL2', sandbox.url, { env: { KASA_LANG: 'sr-Cyrl' } });
    await ok(till, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await ok(till, 'staff.login', { pin: MANAGER_PIN });
  });
  afterAll(async () => {
    await till?.close();
    await sandbox?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const putProduct = (label: string) =>
    till.dispatch('catalog.put', {
      code: 'Z1',
      name: 'Сок',
      price: 100,
      label,
      unit: 'piece',
      favourite: false,
      barcodes: [],
      approval: { managerPin: MANAGER_PIN },
    }) as Promise<{ ok: boolean; error?: { code: string; field?: string; message?: string } }>;

  it('after the refusal the catalog refuses a product under Ж at its label, in the till language', async () => {
    const first = await putProduct(REFUSED);
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const sold = await sellUnder(till, REFUSED);
    expect(sold.ok, JSON.stringify(sold)).toBe(true);
    await parked(till, sold.value?.orderId ?? 0);
    const r = await putProduct(REFUSED);
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ code: 'invalid_input', field: 'label' });
    expect(r.error?.message).toBe(
      message('sr-Cyrl', 'label_refused', { value: REFUSED, labels: 'A, F, E, B, N, C, P, T' }),
    );
    expect((await putProduct('A')).ok).toBe(true);
  });
});
